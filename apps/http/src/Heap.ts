import { setFlagsFromString } from "node:v8"

/**
 * Lets V8's heap grow only `percent` past the live data before the next full collection. V8's own
 * factor (up to 4) keeps a busy server's heap at twice its live data or more; 15 % held the embedded
 * default under 400 MiB under load at the same request rate (README, "Memory"). The factor is read
 * at each collection, so it can be set once the process runs; 0 leaves V8's.
 */
export const tuneHeap = (percent: number): void => {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`)
}

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff). PGlite's PostgreSQL is 9 MB of WebAssembly: V8 recompiles
 * the functions that run often with its optimizing compiler and keeps both codes, 40 to 60 MiB more resident at start
 * and more under load. Queries that are mostly protocol and I/O run as fast; aggregations and ranking take about a third
 * longer (README, "Memory"). V8 reads the flag when it compiles a module, so it is set before the storage starts.
 */
export const keepWasmBaseline = (): void => setFlagsFromString("--liftoff-only")
