import type { Migration } from "../shared/Migrations.js"
import { migration as content } from "./migrations/0003_content.js"
import { migration as changeRequests } from "./migrations/0004_change_requests.js"

export const contentMigrations: ReadonlyArray<Migration> = [content, changeRequests]
