import type { Migration } from "../shared/Migrations.js"
import { migration as openapi } from "./migrations/0016_openapi.js"

export const openapiMigrations: ReadonlyArray<Migration> = [openapi]
