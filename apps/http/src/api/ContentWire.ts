import { PageKind } from "@octavo/domain"
import { Schema } from "effect"

// Wire shapes of space content: Revision, Page (nested), File.

export const FileObject = Schema.Struct({
  object: Schema.Literal("file"),
  id: Schema.String,
  name: Schema.String,
  contentType: Schema.String,
  downloadURL: Schema.String,
  size: Schema.Number,
  dimensions: Schema.optional(Schema.Struct({ width: Schema.Number, height: Schema.Number })),
  git: Schema.optional(Schema.Struct({ oid: Schema.String, path: Schema.String }))
}).annotations({ identifier: "File" })

const pageFields = {
  object: Schema.Literal("page"),
  id: Schema.String,
  type: PageKind,
  title: Schema.String,
  emoji: Schema.optional(Schema.String),
  icon: Schema.optional(Schema.String),
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  slug: Schema.String,
  path: Schema.String,
  description: Schema.optional(Schema.String),
  href: Schema.optional(Schema.String),
  markdown: Schema.optional(Schema.String),
  document: Schema.optional(Schema.Unknown),
  hidden: Schema.Boolean,
  noIndex: Schema.Boolean,
  noRobotsIndex: Schema.Boolean,
  layout: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.Boolean, Schema.String) })),
  git: Schema.optional(Schema.Struct({ oid: Schema.String, path: Schema.String })),
  urls: Schema.Struct({ app: Schema.String })
}

export interface PageObject extends Schema.Struct.Type<typeof pageFields> {
  readonly pages: ReadonlyArray<PageObject>
}
export interface PageObjectEncoded extends Schema.Struct.Encoded<typeof pageFields> {
  readonly pages: ReadonlyArray<PageObjectEncoded>
}

export const PageObject: Schema.Schema<PageObject, PageObjectEncoded> = Schema.Struct({
  ...pageFields,
  pages: Schema.Array(Schema.suspend((): Schema.Schema<PageObject, PageObjectEncoded> => PageObject))
}).annotations({ identifier: "Page" })

export const RevisionObject = Schema.Struct({
  object: Schema.Literal("revision"),
  id: Schema.String,
  parents: Schema.Array(Schema.String),
  type: Schema.String,
  createdAt: Schema.Date,
  pages: Schema.Array(PageObject),
  files: Schema.Array(FileObject),
  reusableContents: Schema.Array(Schema.Unknown),
  urls: Schema.Struct({ app: Schema.String })
}).annotations({ identifier: "Revision" })
