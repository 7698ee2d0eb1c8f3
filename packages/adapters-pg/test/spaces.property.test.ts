import { spacesModelProperty } from "@octavo/domain/contract"
import { pgliteStorage, serverStorage, serverUrl } from "./helpers.js"

// The model-based property of the tree, on fewer runs than in memory: each run writes through SQL.
spacesModelProperty("PGlite", pgliteStorage, 25)

if (serverUrl !== undefined) {
  const url = serverUrl
  spacesModelProperty("Postgres server", () => serverStorage(url), 25)
}
