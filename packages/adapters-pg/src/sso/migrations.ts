import type { Migration } from "../shared/Migrations.js"
import { migration as sso } from "./migrations/0014_sso.js"

export const ssoMigrations: ReadonlyArray<Migration> = [sso]
