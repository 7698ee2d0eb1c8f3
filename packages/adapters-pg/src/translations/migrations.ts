import type { Migration } from "../shared/Migrations.js"
import { migration as translations } from "./migrations/0015_translations.js"

export const translationsMigrations: ReadonlyArray<Migration> = [translations]
