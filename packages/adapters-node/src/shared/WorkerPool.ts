/**
 * The domain's `HeavyWork` on worker threads (issue 13): parsing a 1 MB page or a 10 MiB spec takes seconds of CPU,
 * which on the event loop would stall every other request. A small pool of workers (parseWorker.ts) takes tasks from
 * one queue; small inputs are parsed here, where a round trip to a worker would cost more than the parse. A worker
 * that does not answer in time, or stops (out of memory), is replaced, and its task answered as unreadable input.
 */
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import { type HeavyTask, HeavyWork, runHere, Unreadable } from "@octavo/domain"
import { Effect, Layer } from "effect"
import type { TaskRequest, WorkerMessage } from "./parseWorker.js"

export interface WorkerPoolOptions {
  /** How many worker threads; 0 parses everything in the server's thread. */
  readonly workers: number
  /** Inputs shorter than this (in characters) are parsed in the server's thread. */
  readonly thresholdChars: number
  /** How long a task may take in a worker before the worker is replaced and the input refused. */
  readonly timeoutMs: number
  /** A worker's heap limit in MiB; 0 leaves V8's own. */
  readonly heapMb: number
}

/** One worker per core but the one the server's thread runs on, at least one. */
export const defaultParseWorkers = (): number => Math.max(1, availableParallelism() - 1)

export const DEFAULT_WORKER_POOL: WorkerPoolOptions = {
  workers: defaultParseWorkers(),
  // About 40 ms of parsing here at most: a larger input waits for a worker rather than holding every other request.
  thresholdChars: 8 * 1024,
  // The largest accepted input (a 10 MiB YAML specification) takes 10 to 15 s on a loaded 2-core machine.
  timeoutMs: 60_000,
  heapMb: 0
}

/**
 * The worker's entry: from the build, the compiled sibling; from the TypeScript sources (vitest), a loader that
 * compiles them in the worker with tsx and reads the workspace packages' sources, so tests never run a stale build.
 */
const workerEntry = (): { readonly url: URL; readonly execArgv?: Array<string> } =>
  import.meta.url.endsWith(".ts")
    ? { url: new URL("./parseWorker.dev.mjs", import.meta.url), execArgv: ["--conditions=octavo-source"] }
    : { url: new URL("./parseWorker.js", import.meta.url) }

type Answer = Effect.Effect<unknown, Unreadable>

interface Job {
  readonly id: number
  readonly name: string
  readonly args: ReadonlyArray<unknown>
  readonly resume: (answer: Answer) => void
}

interface Slot {
  readonly worker: Worker
  ready: boolean
  job: Job | undefined
  timer: ReturnType<typeof setTimeout> | undefined
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`

/** The pool: at most `workers` threads, started when first needed, and a queue of the tasks waiting for one. */
const makePool = (options: WorkerPoolOptions) => {
  const entry = workerEntry()
  const slots = new Set<Slot>()
  const queue: Array<Job> = []
  let nextId = 0
  let closed = false

  const settle = (slot: Slot, answer: Answer) => {
    const job = slot.job
    if (slot.timer !== undefined) clearTimeout(slot.timer)
    slot.job = undefined
    slot.timer = undefined
    job?.resume(answer)
  }

  const dispatch = (slot: Slot, job: Job) => {
    slot.job = job
    slot.timer = setTimeout(() => {
      settle(slot, Effect.fail(new Unreadable({ rule: `could not be read within ${seconds(options.timeoutMs)}` })))
      retire(slot)
    }, options.timeoutMs)
    slot.worker.postMessage({ id: job.id, name: job.name, args: job.args } satisfies TaskRequest)
  }

  const next = (slot: Slot) => {
    const job = queue.shift()
    if (job !== undefined) dispatch(slot, job)
  }

  /** Stops a worker that timed out or stopped; the queue gets a new one if it still holds tasks. */
  const retire = (slot: Slot) => {
    slots.delete(slot)
    void slot.worker.terminate()
    const job = queue.shift()
    if (job !== undefined && !closed) dispatch(spawn(), job)
  }

  const spawn = (): Slot => {
    const worker = new Worker(entry.url, {
      ...(entry.execArgv !== undefined ? { execArgv: entry.execArgv } : {}),
      // A stack no deeper than the server thread's (about 1 MB): what a worker reads, the server's thread can read too.
      resourceLimits: { stackSizeMb: 1, ...(options.heapMb > 0 ? { maxOldGenerationSizeMb: options.heapMb } : {}) }
    })
    // An idle worker does not keep a stopping process alive.
    worker.unref()
    const slot: Slot = { worker, ready: false, job: undefined, timer: undefined }
    slots.add(slot)
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "ready") return void (slot.ready = true)
      if (slot.job?.id !== message.id) return
      settle(
        slot,
        message.kind === "value"
          ? Effect.succeed(message.value)
          : message.kind === "unreadable"
          ? Effect.fail(new Unreadable({ rule: message.rule }))
          : Effect.die(new Error(message.message))
      )
      next(slot)
    })
    const stopped = (error: unknown) => {
      if (!slots.has(slot)) return
      // Stopping while loading is the server's fault (a missing build, say); stopping on a task, the input's.
      settle(
        slot,
        closed
          ? Effect.interrupt
          : !slot.ready
          ? Effect.die(new Error(`A parse worker could not start: ${String(error)}`))
          : Effect.fail(new Unreadable({ rule: `could not be read: its parser stopped (${describe(error)})` }))
      )
      retire(slot)
    }
    worker.on("error", stopped)
    worker.on("exit", (code) => stopped(`exit code ${code}`))
    return slot
  }

  const submit = (name: string, args: ReadonlyArray<unknown>, resume: (answer: Answer) => void): Job => {
    const job: Job = { id: nextId++, name, args, resume }
    if (closed) {
      resume(Effect.interrupt)
      return job
    }
    const idle = Array.from(slots).find((slot) => slot.job === undefined)
    if (idle !== undefined) dispatch(idle, job)
    else if (slots.size < options.workers) dispatch(spawn(), job)
    else queue.push(job)
    return job
  }

  /** A task whose caller went away leaves the queue; one already running finishes, unheard. */
  const cancel = (job: Job) => {
    const at = queue.indexOf(job)
    if (at >= 0) queue.splice(at, 1)
  }

  const close = () => {
    closed = true
    for (const job of queue.splice(0)) job.resume(Effect.interrupt)
    const stopping = Array.from(slots, (slot) => {
      slots.delete(slot)
      settle(slot, Effect.interrupt)
      return slot.worker.terminate()
    })
    return Promise.all(stopping)
  }

  return { submit, cancel, close }
}

const describe = (error: unknown): string =>
  (error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY"
    ? "out of memory"
    : String((error as { message?: unknown }).message ?? error)

/** How much a task's arguments hold, in strings (and bytes) wherever they nest: the measure of the threshold. */
const sizeOf = (args: ReadonlyArray<unknown>): number =>
  args.reduce<number>(
    (sum, arg) =>
      sum + (typeof arg === "string"
        ? arg.length
        : ArrayBuffer.isView(arg)
        ? arg.byteLength
        : Array.isArray(arg)
        ? sizeOf(arg)
        : typeof arg === "object" && arg !== null
        ? sizeOf(Object.values(arg))
        : 0),
    0
  )

/** `HeavyWork` on a pool of worker threads, stopped with the layer's scope; `workers: 0` keeps it all in this thread. */
export const WorkerPoolLive = (options: Partial<WorkerPoolOptions> = {}) => {
  const resolved = { ...DEFAULT_WORKER_POOL, ...options }
  if (resolved.workers <= 0) return Layer.succeed(HeavyWork, { run: runHere })
  return Layer.scoped(
    HeavyWork,
    Effect.map(Effect.acquireRelease(Effect.sync(() => makePool(resolved)), (pool) => Effect.promise(pool.close)), (pool) => ({
      run: <Args extends ReadonlyArray<unknown>, A>(task: HeavyTask<Args, A>, ...args: Args): Effect.Effect<A, Unreadable> =>
        sizeOf(args) < resolved.thresholdChars
          ? runHere(task, ...args)
          : Effect.async<A, Unreadable>((resume) => {
            const job = pool.submit(task.name, args, (answer) => resume(answer as Effect.Effect<A, Unreadable>))
            return Effect.sync(() => pool.cancel(job))
          })
    }))
  )
}
