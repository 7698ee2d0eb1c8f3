import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs"
import { join, resolve } from "node:path"
import { Data, Effect } from "effect"

/** Another live process holds the data directory: two writers on one PGlite directory lose writes. */
export class DataDirLocked extends Data.TaggedError("DataDirLocked")<{
  readonly dataDir: string
  readonly pid: number
  readonly lockFile: string
}> {
  override get message(): string {
    return `The data directory ${this.dataDir} is in use by process ${this.pid} (lock file ${this.lockFile}). ` +
      "Stop that process or use another data directory; if it is not an Octavo server, delete the lock file."
  }
}

/** The lock file's name inside the data directory. */
export const lockFileName = "octavo.lock"

// Lock files this process holds: its own pid in a lock file it does not hold is stale (a container's
// server is often pid 1 again after a kill -9), while one it holds is a second acquisition.
const held = new Set<string>()

const errorCode = (error: unknown): unknown => typeof error === "object" && error !== null && "code" in error ? error.code : undefined

const isAlive = (pid: number): boolean => {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return errorCode(error) === "EPERM"
  }
}

/** The pid recorded in a lock file, undefined when the file is gone or holds no pid. */
const readPid = (path: string): number | undefined => {
  try {
    const pid = Number(readFileSync(path, "utf8").trim())
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined
    throw error
  }
}

/** Creates the lock file only if none exists, with this process's pid; false when one exists. */
const create = (path: string): boolean => {
  let fd: number
  try {
    fd = openSync(path, "wx")
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false
    throw error
  }
  try {
    writeSync(fd, `${process.pid}\n`)
  } finally {
    closeSync(fd)
  }
  return true
}

/**
 * Removes a lock file whose holder `stalePid` is dead. It is renamed aside first, so that of
 * several processes taking over at once only one removes it; if what was moved aside is no longer
 * the stale lock (another process took over in between), it is put back.
 */
const removeStale = (path: string, stalePid: number | undefined): void => {
  const aside = `${path}.${process.pid}.stale`
  try {
    renameSync(path, aside)
  } catch (error) {
    if (errorCode(error) === "ENOENT") return
    throw error
  }
  if (readPid(aside) !== stalePid) {
    try {
      linkSync(aside, path)
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error
    }
  }
  unlinkSync(aside)
}

const attempts = 5

const tryAcquire = (dataDir: string, path: string, attempt: number): "held" | "retry" | DataDirLocked => {
  if (create(path)) {
    held.add(path)
    return "held"
  }
  const pid = readPid(path)
  // A lock without a pid may be one whose writer is between creating and writing it: it is stale
  // only if it stays empty.
  if (pid === undefined && attempt < attempts - 2) return "retry"
  if (pid !== undefined && isAlive(pid) && (pid !== process.pid || held.has(path))) {
    return new DataDirLocked({ dataDir, pid, lockFile: path })
  }
  removeStale(path, pid)
  return "retry"
}

/** The directory on disk behind a PGlite `dataDir`: a path or a `file://` one; in-memory and browser stores have none. */
export const directoryOnDisk = (dataDir: string): string | undefined => {
  if (dataDir.startsWith("file://")) return dataDir.slice("file://".length)
  return dataDir === "" || /^[a-z0-9-]+:\/\//.test(dataDir) ? undefined : dataDir
}

/**
 * Takes the exclusive lock on a data directory (creating the directory if needed) for the scope,
 * releasing it when the scope closes. Fails with DataDirLocked when a live process holds it; a
 * lock left by a process that died is taken over.
 */
export const acquireDataDirLock = (dataDir: string) => {
  const path = resolve(join(dataDir, lockFileName))
  const acquire = Effect.gen(function*() {
    yield* Effect.sync(() => mkdirSync(dataDir, { recursive: true }))
    for (let attempt = 0; attempt < attempts; attempt++) {
      const result = yield* Effect.sync(() => tryAcquire(dataDir, path, attempt))
      if (result instanceof DataDirLocked) return yield* Effect.fail(result)
      if (result === "held") return path
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.fail(new DataDirLocked({ dataDir, pid: readPid(path) ?? 0, lockFile: path }))
  })
  return Effect.acquireRelease(acquire, (path) =>
    Effect.sync(() => {
      held.delete(path)
      // Only this process's own lock is removed, never one another process took over.
      if (readPid(path) === process.pid) unlinkSync(path)
    }))
}
