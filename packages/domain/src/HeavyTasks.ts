import { documentJsonTask } from "./content/Document.js"
import { processSpecTask } from "./openapi/Process.js"
import { blocksTask, type HeavyTask, linksTask, readPageTask, rewriteLinksTask, sectionsTask } from "./shared/HeavyWork.js"

/** Every task `HeavyWork` may be asked to run, by name: the table a worker thread runs them from. */
export const heavyTasks: ReadonlyMap<string, HeavyTask<ReadonlyArray<never>, unknown>> = new Map(
  [readPageTask, linksTask, rewriteLinksTask, sectionsTask, blocksTask, documentJsonTask, processSpecTask].map((task) => [task.name, task])
)
