import type { Migration } from "../shared/Migrations.js"
import { migration as integrations } from "./migrations/0017_integrations.js"

export const integrationsMigrations: ReadonlyArray<Migration> = [integrations]
