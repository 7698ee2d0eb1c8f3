import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { BlobStore } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"

/**
 * File bytes in a directory on disk, one file per content address, spread over 256 folders.
 * Writes go to a temporary name first and are renamed into place, so a reader never sees half a file.
 */
export const DiskBlobStore = (directory: string) =>
  Layer.succeed(
    BlobStore,
    BlobStore.of({
      put: (key, bytes) =>
        Effect.tryPromise(async () => {
          const folder = join(directory, key.slice(0, 2))
          await mkdir(folder, { recursive: true })
          const temporary = join(folder, `.${key}.${process.pid}.${Date.now()}.tmp`)
          await writeFile(temporary, bytes)
          await rename(temporary, join(folder, key))
        }).pipe(Effect.orDie),
      get: (key) =>
        Effect.tryPromise({
          try: () => readFile(join(directory, key.slice(0, 2), key)),
          catch: (error) => error
        }).pipe(
          Effect.map((buffer) => Option.some(new Uint8Array(buffer))),
          Effect.catchAll((error) => (error as { code?: unknown }).code === "ENOENT" ? Effect.succeed(Option.none()) : Effect.die(error))
        )
    })
  )
