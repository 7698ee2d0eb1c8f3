import type { Migration } from "../shared/Migrations.js"
import { migration as content } from "./migrations/0003_content.js"
import { migration as changeRequests } from "./migrations/0004_change_requests.js"
import { migration as pageParents } from "./migrations/0020_page_parents.js"

/** The content context's migrations; 20 adds the indexes of pages by id and by parent that a read of one page walks. */
export const contentMigrations: ReadonlyArray<Migration> = [content, changeRequests, pageParents]
