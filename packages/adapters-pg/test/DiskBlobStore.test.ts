import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BlobStore } from "@octavo/domain"
import { afterAll, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DiskBlobStore } from "../src/index.js"

const directory = mkdtempSync(join(tmpdir(), "octavo-blobs-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

it.effect("keeps blobs on disk by key, once, and reads them back byte for byte", () =>
  Effect.gen(function*() {
    const blobs = yield* BlobStore
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i)
    const key = "ab".padEnd(64, "0")
    yield* blobs.put(key, bytes)
    yield* blobs.put(key, bytes)
    expect(Option.getOrThrow(yield* blobs.get(key))).toEqual(bytes)
    expect(readdirSync(join(directory, "ab"))).toEqual([key])
    expect(yield* blobs.get("cd".padEnd(64, "1"))).toEqual(Option.none())
  }).pipe(Effect.provide(DiskBlobStore(directory))))
