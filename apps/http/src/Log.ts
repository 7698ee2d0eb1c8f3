import { writeSync } from "node:fs"
import { Logger } from "effect"

// The server's log: the lines of Effect's `Logger.json` (one JSON object a line on stdout, Redactable values such as
// request headers redacted), written together once a turn of the event loop instead of one synchronous `console.log`
// each. Lines still waiting when the process exits are written then.

let pending = ""

const flush = () => {
  const text = pending
  pending = ""
  if (text !== "") process.stdout.write(text)
}

process.once("exit", () => {
  if (pending !== "") writeSync(1, pending)
  pending = ""
})

/** `Logger.json`'s lines, written once a turn of the event loop. */
export const jsonLines: Logger.Logger<unknown, void> = Logger.make((options) => {
  if (pending === "") setImmediate(flush)
  pending += `${Logger.jsonLogger.log(options)}\n`
})

/** Replaces Effect's default logger with `jsonLines`. */
export const JsonLinesLive = Logger.replace(Logger.defaultLogger, jsonLines)
