/**
 * The `document` format of a page: its markdown as GitBook's JSON document, and back. Both ways
 * are @octavo/markdown's; a document it writes is valid against GitBook's `JSONDocument` schema.
 */
import { fromDocument, type JSONDocument, toDocument } from "@octavo/markdown"
import type { Effect } from "effect"
import { heavyTask, runBatched, type Unreadable } from "../shared/HeavyWork.js"

export type {
  DocumentBlock as Block,
  DocumentContentRef,
  DocumentInline as Inline,
  DocumentLeaf,
  DocumentMark,
  DocumentText,
  JSONDocument
} from "@octavo/markdown"

export type Document = JSONDocument

export const markdownToDocument: (markdown: string) => Document = toDocument

export const documentToMarkdown: (document: Document) => string = fromDocument

/**
 * Pages' documents as JSON text: the conversion of a large page takes seconds, and text is what an answer writes and
 * what a worker thread hands back cheaply.
 */
export const documentJsonTask = heavyTask(
  "markdown.documentJson",
  (markdowns: ReadonlyArray<string>): Array<string> => markdowns.map((markdown) => JSON.stringify(toDocument(markdown)))
)

/**
 * Each markdown's document as JSON text, in order: converted in batches (`runBatched`), so that a tree of thousands of
 * pages, or one page of a million characters, never holds the caller's thread for long.
 */
export const documentsAsJson = (markdowns: ReadonlyArray<string>): Effect.Effect<Array<string>, Unreadable> =>
  runBatched(documentJsonTask, markdowns)
