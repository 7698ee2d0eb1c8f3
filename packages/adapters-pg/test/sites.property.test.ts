import { sitesModelProperty } from "@octavo/domain/contract"
import { pgliteStorage, serverStorage, serverUrl } from "./helpers.js"

// The model-based property of sites, on fewer runs than in memory: each run writes through SQL.
sitesModelProperty("PGlite", pgliteStorage, 10)

if (serverUrl !== undefined) {
  const url = serverUrl
  sitesModelProperty("Postgres server", () => serverStorage(url), 15)
}
