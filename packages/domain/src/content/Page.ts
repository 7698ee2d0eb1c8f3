import { Schema } from "effect"
import { FileId, PageId, RevisionId } from "../shared/Ids.js"
import { boundedArray, boundedString, StoredJson, StoredString, storedKeysRecord } from "../shared/Limits.js"

// Space content: pages and files of a revision.
export const PageKind = Schema.Literal("document", "group", "link")
export type PageKind = typeof PageKind.Type

export const PageTitle = boundedString({ min: 1, max: 255 })
export const PageSlug = boundedString({ min: 1, max: 100 }).pipe(
  Schema.filter((s) => /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/.test(s) || "must be lower-case letters and digits joined by - _ or .")
)

export const PageLayout = Schema.Struct({
  cover: Schema.optional(Schema.Boolean),
  title: Schema.optional(Schema.Boolean),
  description: Schema.optional(Schema.Boolean),
  tableOfContents: Schema.optional(Schema.Boolean),
  outline: Schema.optional(Schema.Boolean),
  pagination: Schema.optional(Schema.Boolean),
  coverSize: Schema.optional(Schema.String)
})
export type PageLayout = typeof PageLayout.Type

export const PageGit = Schema.Struct({ oid: Schema.String, path: Schema.String })

/**
 * A page as one revision holds it. Pages form a tree through `parentId`; `position` orders
 * siblings. A revision shares the versions of the pages it did not change with its parent.
 */
export const ContentPage = Schema.Struct({
  id: PageId,
  kind: PageKind,
  title: Schema.String,
  slug: Schema.String,
  parentId: Schema.NullOr(PageId),
  position: Schema.String,
  /** The body of a document page; empty for groups and links. */
  markdown: Schema.String,
  emoji: Schema.optional(Schema.String),
  icon: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  /** The target of a link page. */
  href: Schema.optional(Schema.String),
  hidden: Schema.Boolean,
  noIndex: Schema.Boolean,
  noRobotsIndex: Schema.Boolean,
  layout: Schema.optional(PageLayout),
  /** Adaptive-content condition: whether a visitor sees the page. */
  condition: Schema.optional(Schema.String),
  cover: Schema.optional(Schema.Struct({ file: Schema.String, yPos: Schema.optional(Schema.Number) })),
  git: Schema.optional(PageGit),
  /** What a sidebar shows instead of the title: a Git Sync SUMMARY.md entry's navigation label. */
  navigationLabel: Schema.optional(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type ContentPage = typeof ContentPage.Type

export const File = Schema.Struct({
  id: FileId,
  name: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  dimensions: Schema.optional(Schema.Struct({ width: Schema.Number, height: Schema.Number })),
  /** Where the blob store keeps the bytes. */
  blobKey: Schema.String,
  git: Schema.optional(PageGit),
  createdAt: Schema.DateFromSelf
})
export type File = typeof File.Type

/** What a revision holds. */
export interface RevisionContent {
  readonly pages: ReadonlyMap<PageId, ContentPage>
  readonly files: ReadonlyMap<FileId, File>
}

/**
 * A link page's target inside its own space, as its \`href\` holds it: \`/pages/<id>\`, with \`#anchor\` for a place in
 * the page (GitBook's SUMMARY.md entries that point into a page, \`[Buttons](inline.md#buttons)\`).
 */
export const pageLink = (page: string, anchor: string | undefined): string => `/pages/${page}${anchor === undefined ? "" : `#${anchor}`}`

/** The page (and anchor) a link page's \`href\` names inside its space; undefined for a URL. */
export const linkedPage = (href: string): { readonly page: PageId; readonly anchor: string | undefined } | undefined => {
  const found = /^\/pages\/([^/#?]+)(?:#(.*))?$/.exec(href)
  return found === null ? undefined : { page: PageId.make(found[1] as string), anchor: found[2] }
}

export const emptyContent: RevisionContent = { pages: new Map(), files: new Map() }

/** What a revision changes relative to its parent: the only thing stored for it. */
export interface ContentDelta {
  readonly pages: ReadonlyArray<ContentPage>
  readonly deletedPages: ReadonlyArray<PageId>
  readonly files: ReadonlyArray<File>
  readonly deletedFiles: ReadonlyArray<FileId>
}

// Content changes: GitBook's `ChangeRequestContentChange`, discriminated by `operation` (conventions.md,
// "Content changes"); a batch of 1 to 50, applied in order, all or nothing.
const Markdown = boundedString({ max: 1_000_000 })

/** A JSON document as GitBook writes it; its blocks are read when it is turned into markdown. */
export const JSONDocumentInput = Schema.Struct({
  object: Schema.Literal("document"),
  data: Schema.optional(storedKeysRecord(StoredJson)),
  nodes: Schema.Array(StoredJson)
})

/** GitBook's `Document`: `{markdown}`, `{document}` or `{}` (no body). */
export const DocumentInput = Schema.Struct({
  markdown: Schema.optional(Markdown),
  document: Schema.optional(JSONDocumentInput)
}).pipe(Schema.filter((d) => d.markdown === undefined || d.document === undefined || "must be one of {markdown}, {document} or {}"))
export type DocumentInput = typeof DocumentInput.Type

/** A batch-local name for a page or file, for links between the changes of one batch. */
export const BatchRef = boundedString({ min: 1, max: 256 })

/** An emoji or icon; an empty string or null removes it. */
const Removable = (max: number) => Schema.optional(Schema.NullOr(boundedString({ max })))

/** The page fields a change may set, the same for inserting and updating (GitBook's `RevisionPageUpdate`). */
const pageChangeFields = {
  title: Schema.optional(PageTitle),
  slug: Schema.optional(PageSlug),
  document: Schema.optional(DocumentInput),
  href: Schema.optional(boundedString({ min: 1, max: 2048 })),
  emoji: Removable(50),
  icon: Removable(100),
  description: Schema.optional(boundedString({ max: 500 })),
  hidden: Schema.optional(Schema.Boolean),
  noIndex: Schema.optional(Schema.Boolean),
  noRobotsIndex: Schema.optional(Schema.Boolean),
  /** Adaptive-content condition; an empty string removes it. */
  condition: Schema.optional(boundedString({ max: 1000 })),
  /** The parent page, null for the top; with `at`, the index among its pages. */
  into: Schema.optional(Schema.NullOr(PageId)),
  at: Schema.optional(Schema.NonNegativeInt)
}

export const InsertPage = Schema.Struct({
  operation: Schema.Literal("insert_page"),
  /** Octavo's extension: a group or link page (GitBook inserts documents). */
  kind: Schema.optional(PageKind),
  ref: Schema.optional(BatchRef),
  ...pageChangeFields
})

export const UpdatePage = Schema.Struct({
  operation: Schema.Literal("update_page"),
  page: PageId,
  ...pageChangeFields
})

export const DeletePage = Schema.Struct({ operation: Schema.Literal("delete_page"), page: PageId })

export const RevertPage = Schema.Struct({
  operation: Schema.Literal("revert_page"),
  page: PageId,
  /** The revision whose version of the page comes back; the change request's base when absent. */
  revision: Schema.optional(RevisionId),
  /** GitBook's block-level revert; refused until Octavo keeps block keys. */
  block: Schema.optional(Schema.Array(StoredString))
})

export const FileUpload = Schema.Struct({
  name: boundedString({ min: 1, max: 256 }),
  ref: Schema.optional(BatchRef),
  contentType: Schema.optional(boundedString({ max: 255 })),
  base64: Schema.optional(StoredString),
  url: Schema.optional(boundedString({ min: 1, max: 2048 }))
}).pipe(Schema.filter((f) => (f.base64 === undefined) !== (f.url === undefined) || "must have exactly one of base64 or url"))
export type FileUpload = typeof FileUpload.Type

export const InsertFiles = Schema.Struct({
  operation: Schema.Literal("insert_files"),
  files: boundedArray(FileUpload, { min: 1, max: 20 })
})

export const ContentChange = Schema.Union(InsertPage, UpdatePage, DeletePage, RevertPage, InsertFiles)
export type ContentChange = typeof ContentChange.Type

export const ContentChanges = Schema.Struct({ changes: boundedArray(ContentChange, { min: 1, max: 50 }) })
export type ContentChanges = typeof ContentChanges.Type
