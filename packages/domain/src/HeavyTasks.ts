import { documentJsonTask } from "./content/Document.js"
import { readSummaryTask, writeSummaryTask } from "./gitsync/Format.js"
import { htmlToMarkdownTask, readHtmlTask } from "./imports/ImportService.js"
import { processSpecTask } from "./openapi/Process.js"
import {
  blocksTask,
  type HeavyTask,
  keepUnchangedBlocksTask,
  linksOfPagesTask,
  linksTask,
  readPagesTask,
  readPageTask,
  rewriteLinksTask,
  sectionsTask
} from "./shared/HeavyWork.js"

/** Every task `HeavyWork` may be asked to run, by name: the table a worker thread runs them from. */
export const heavyTasks: ReadonlyMap<string, HeavyTask<ReadonlyArray<never>, unknown>> = new Map(
  [
    readPageTask,
    readPagesTask,
    linksTask,
    linksOfPagesTask,
    rewriteLinksTask,
    keepUnchangedBlocksTask,
    sectionsTask,
    blocksTask,
    documentJsonTask,
    readSummaryTask,
    writeSummaryTask,
    readHtmlTask,
    htmlToMarkdownTask,
    processSpecTask
  ].map((task) => [task.name, task])
)
