/**
 * The `document` format of a page: its markdown as GitBook's JSON document, and back. Both ways
 * are @octavo/markdown's; a document it writes is valid against GitBook's `JSONDocument` schema.
 */
import { fromDocument, type JSONDocument, toDocument } from "@octavo/markdown"

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
