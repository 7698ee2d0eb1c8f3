import { commentsModelProperty } from "@octavo/domain/contract"
import { pgliteStorage, serverStorage, serverUrl } from "./helpers.js"

// The model-based property of comments, on fewer runs than in memory: each run writes through SQL.
commentsModelProperty("PGlite", pgliteStorage, 12)

if (serverUrl !== undefined) {
  const url = serverUrl
  commentsModelProperty("Postgres server", () => serverStorage(url), 15)
}
