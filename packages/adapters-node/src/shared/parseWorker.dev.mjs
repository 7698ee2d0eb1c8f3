// The parse worker when the server runs from its TypeScript sources (vitest): tsx compiles them in the worker
// thread too, and `--conditions=octavo-source` (given by WorkerPool.ts) reads the workspace packages' sources, as vitest does.
import { register } from "tsx/esm/api"

register()
await import("./parseWorker.ts")
