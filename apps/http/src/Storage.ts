import { join } from "node:path"
import { MemoryStorage } from "@octavo/adapters-memory"
import { DiskBlobStore, PgliteClient, PgServerClient, PgStorage } from "@octavo/adapters-pg"
import type { StoragePorts } from "@octavo/domain"
import { Layer } from "effect"
import type { StorageChoice } from "./Config.js"

/** The storage adapter for a configuration. */
export const storageLayer = (choice: StorageChoice): Layer.Layer<StoragePorts, unknown> => {
  switch (choice._tag) {
    case "memory":
      return MemoryStorage
    case "postgres":
      return PgStorage.pipe(Layer.provide(PgServerClient(choice.url, { preparedStatements: choice.preparedStatements ?? true })))
    case "pglite":
      // The embedded default keeps file bytes as files beside its database, under the data directory.
      return Layer.merge(
        PgStorage.pipe(Layer.provide(PgliteClient({ dataDir: choice.dataDir }))),
        DiskBlobStore(join(choice.dataDir, "blobs"))
      )
  }
}
