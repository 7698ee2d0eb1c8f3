import type { Migration } from "../shared/Migrations.js"
import { migration as spaces } from "./migrations/0002_spaces.js"

export const spacesMigrations: ReadonlyArray<Migration> = [spaces]
