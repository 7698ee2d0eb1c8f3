import { Schema } from "effect"
import { FileId, PageId } from "../shared/Ids.js"
import { boundedArray, boundedString } from "../shared/Limits.js"

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
  cover: Schema.optional(Schema.Struct({ file: Schema.String, yPos: Schema.optional(Schema.Number) })),
  git: Schema.optional(PageGit),
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

export const emptyContent: RevisionContent = { pages: new Map(), files: new Map() }

/** What a revision changes relative to its parent: the only thing stored for it. */
export interface ContentDelta {
  readonly pages: ReadonlyArray<ContentPage>
  readonly deletedPages: ReadonlyArray<PageId>
  readonly files: ReadonlyArray<File>
  readonly deletedFiles: ReadonlyArray<FileId>
}

// Content changes (conventions.md, "Content changes"): a batch of 1 to 50, applied in order.
const Markdown = boundedString({ max: 1_000_000 })
const Document = Schema.Struct({ markdown: Markdown })

/** The page fields a change may set, the same for inserting and updating. */
const pageChangeFields = {
  title: Schema.optional(PageTitle),
  slug: Schema.optional(PageSlug),
  document: Schema.optional(Document),
  href: Schema.optional(boundedString({ min: 1, max: 2048 })),
  emoji: Schema.optional(boundedString({ max: 50 })),
  icon: Schema.optional(boundedString({ max: 100 })),
  description: Schema.optional(boundedString({ max: 500 })),
  hidden: Schema.optional(Schema.Boolean),
  /** The parent page, null for the top; with `at`, the index among its pages. */
  into: Schema.optional(Schema.NullOr(PageId)),
  at: Schema.optional(Schema.NonNegativeInt)
}

export const InsertPage = Schema.Struct({
  type: Schema.Literal("insert_page"),
  kind: Schema.optional(PageKind),
  ...pageChangeFields
})

export const UpdatePage = Schema.Struct({
  type: Schema.Literal("update_page"),
  page: PageId,
  ...pageChangeFields
})

export const DeletePage = Schema.Struct({ type: Schema.Literal("delete_page"), page: PageId })

export const InsertFiles = Schema.Struct({
  type: Schema.Literal("insert_files"),
  files: boundedArray(
    Schema.Struct({
      name: boundedString({ min: 1, max: 255 }),
      contentType: Schema.optional(boundedString({ max: 255 })),
      base64: Schema.String
    }),
    { min: 1, max: 50 }
  )
})

export const ContentChange = Schema.Union(InsertPage, UpdatePage, DeletePage, InsertFiles)
export type ContentChange = typeof ContentChange.Type

export const ContentChanges = Schema.Struct({ changes: boundedArray(ContentChange, { min: 1, max: 50 }) })
export type ContentChanges = typeof ContentChanges.Type
