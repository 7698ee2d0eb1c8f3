import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Scope } from "effect"
import { acquireDataDirLock, DataDirLocked, directoryOnDisk, lockFileName } from "../src/shared/DataDirLock.js"
import { PgliteClient } from "../src/shared/index.js"

const withTempDir = <A, E>(use: (dir: string) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "octavo-lock-"))),
    use,
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

/** The pid of a process that has exited (and been reaped). */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", ""])
  expect(child.status).toBe(0)
  return child.pid ?? 0
}

const lockedBy = (error: DataDirLocked, dir: string) => {
  expect(error).toBeInstanceOf(DataDirLocked)
  expect(error.pid).toBe(process.pid)
  expect(error.message).toContain(dir)
  expect(error.message).toContain(`process ${process.pid}`)
}

describe("DataDirLock", () => {
  it.live("refuses a second acquisition of a held directory, naming the directory and the holder's pid", () =>
    withTempDir((dir) =>
      Effect.gen(function*() {
        const scope = yield* Scope.make()
        yield* Scope.extend(acquireDataDirLock(dir), scope)
        expect(readFileSync(join(dir, lockFileName), "utf8").trim()).toBe(String(process.pid))
        const second = yield* Effect.flip(Effect.scoped(acquireDataDirLock(dir)))
        lockedBy(second, dir)
        // The refused acquisition leaves the holder's lock in place.
        expect(readFileSync(join(dir, lockFileName), "utf8").trim()).toBe(String(process.pid))
        yield* Scope.close(scope, Exit.void)
      })
    ))

  it.live("is acquired again after it was released, and release removes the lock file", () =>
    withTempDir((dir) =>
      Effect.gen(function*() {
        yield* Effect.scoped(acquireDataDirLock(dir))
        expect(existsSync(join(dir, lockFileName))).toBe(false)
        const path = yield* Effect.scoped(acquireDataDirLock(dir))
        expect(path).toBe(join(dir, lockFileName))
        expect(existsSync(path)).toBe(false)
      })
    ))

  it.live("takes over a lock left by a process that died", () =>
    withTempDir((dir) =>
      Effect.gen(function*() {
        const stale = deadPid()
        writeFileSync(join(dir, lockFileName), `${stale}\n`)
        yield* Effect.scoped(Effect.gen(function*() {
          yield* acquireDataDirLock(dir)
          expect(readFileSync(join(dir, lockFileName), "utf8").trim()).toBe(String(process.pid))
        }))
        expect(existsSync(join(dir, lockFileName))).toBe(false)
      })
    ))

  it.live("takes over an empty lock file (its writer died before writing its pid)", () =>
    withTempDir((dir) =>
      Effect.gen(function*() {
        writeFileSync(join(dir, lockFileName), "")
        yield* Effect.scoped(Effect.gen(function*() {
          yield* acquireDataDirLock(dir)
          expect(readFileSync(join(dir, lockFileName), "utf8").trim()).toBe(String(process.pid))
        }))
      })
    ))

  it.live("takes over a lock with this process's pid that this process does not hold (a restarted pid 1)", () =>
    withTempDir((dir) =>
      Effect.gen(function*() {
        writeFileSync(join(dir, lockFileName), `${process.pid}\n`)
        yield* Effect.scoped(acquireDataDirLock(dir))
        expect(existsSync(join(dir, lockFileName))).toBe(false)
      })
    ))

  it.live("of concurrent acquisitions exactly one succeeds", () =>
    withTempDir((dir) =>
      Effect.gen(function*() {
        writeFileSync(join(dir, lockFileName), `${deadPid()}\n`)
        const scope = yield* Scope.make()
        const results = yield* Effect.all(
          Array.from({ length: 8 }, () => Effect.either(Scope.extend(acquireDataDirLock(dir), scope))),
          { concurrency: "unbounded" }
        )
        expect(results.filter((result) => result._tag === "Right")).toHaveLength(1)
        yield* Scope.close(scope, Exit.void)
        expect(existsSync(join(dir, lockFileName))).toBe(false)
      })
    ))

  it("locks only directories on disk", () => {
    expect(directoryOnDisk("./.octavo")).toBe("./.octavo")
    expect(directoryOnDisk("file:///var/octavo")).toBe("/var/octavo")
    expect(directoryOnDisk("memory://")).toBeUndefined()
    expect(directoryOnDisk("idb://octavo")).toBeUndefined()
  })

  it.live(
    "PgliteClient holds the lock while open: a second client on the directory does not start",
    () =>
      withTempDir((dir) =>
        Effect.gen(function*() {
          const select = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1 AS one`)
          yield* Effect.scoped(Effect.gen(function*() {
            const context = yield* Layer.build(PgliteClient({ dataDir: dir }))
            expect(yield* Effect.provide(select, context)).toEqual([{ one: 1 }])
            const second = yield* Effect.exit(Effect.scoped(Layer.build(PgliteClient({ dataDir: dir }))))
            expect(Exit.isFailure(second)).toBe(true)
            if (Exit.isFailure(second)) expect(Cause.pretty(second.cause)).toContain(`${dir} is in use by process ${process.pid}`)
          }))
          // Closed, the directory opens again with its data.
          expect(yield* Effect.provide(select, PgliteClient({ dataDir: dir }))).toEqual([{ one: 1 }])
        })
      ),
    60_000
  )
})
