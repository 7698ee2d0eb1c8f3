/**
 * A parse worker of WorkerPool.ts: runs the domain's heavy tasks (`heavyTasks`) by name, one at a time,
 * and answers plain data. It says it is ready once loaded, so that a worker that cannot load is told apart
 * from input that cannot be read.
 */
import { parentPort } from "node:worker_threads"
import { heavyTasks, NESTED_TOO_DEEPLY } from "@octavo/domain"

/** A task to run: its name in `heavyTasks` and its arguments. */
export interface TaskRequest {
  readonly id: number
  readonly name: string
  readonly args: ReadonlyArray<unknown>
}

/** What a worker says: loaded, a task's value, input the parser could not read (it threw), or a fault of the server. */
export type WorkerMessage =
  | { readonly kind: "ready" }
  | { readonly kind: "value"; readonly id: number; readonly value: unknown }
  | { readonly kind: "unreadable"; readonly id: number; readonly rule: string }
  | { readonly kind: "fault"; readonly id: number; readonly message: string }

const port = parentPort
if (port !== null) {
  const answer = (message: WorkerMessage) => port.postMessage(message)
  port.on("message", (request: TaskRequest) => {
    const task = heavyTasks.get(request.name)
    if (task === undefined) return answer({ kind: "fault", id: request.id, message: `no task named ${request.name}` })
    let value: unknown
    try {
      value = task.run(...(request.args as ReadonlyArray<never>))
    } catch {
      return answer({ kind: "unreadable", id: request.id, rule: NESTED_TOO_DEEPLY })
    }
    try {
      answer({ kind: "value", id: request.id, value })
    } catch (error) {
      // A value that is not plain data (a function, a class instance) cannot cross threads: a fault of the task.
      answer({ kind: "fault", id: request.id, message: `${request.name} answered what cannot be sent: ${String(error)}` })
    }
  })
  answer({ kind: "ready" })
}
