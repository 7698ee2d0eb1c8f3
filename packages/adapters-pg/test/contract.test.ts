import { contractSuite } from "@octavo/domain/contract"
import { pgliteStorage, serverStorage, serverUrl } from "./helpers.js"

contractSuite("PGlite", pgliteStorage)

if (serverUrl !== undefined) {
  const url = serverUrl
  contractSuite("Postgres server", () => serverStorage(url))
}
