import type { Migration } from "../shared/Migrations.js"
import { migration as comments } from "./migrations/0010_comments.js"

export const commentsMigrations: ReadonlyArray<Migration> = [comments]
