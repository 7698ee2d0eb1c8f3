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
