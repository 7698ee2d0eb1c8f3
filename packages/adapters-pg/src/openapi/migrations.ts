import type { Migration } from "../shared/Migrations.js"
import { migration as openapi } from "./migrations/0016_openapi.js"
import { migration as textChunks } from "./migrations/0022_openapi_text_chunks.js"

export const openapiMigrations: ReadonlyArray<Migration> = [openapi, textChunks]
