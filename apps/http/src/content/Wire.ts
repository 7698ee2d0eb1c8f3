import { ChangeRequest, ContentPage, File, Revision } from "@octavo/domain"
import { Schema } from "effect"
import { ListOf } from "../shared/Common.js"

// Wire shapes of space content (revisions, nested pages, files, links) and change requests,
// fields from the domain's where they match.

export const FileObject = Schema.Struct({
  object: Schema.Literal("file"),
  ...File.pick("id", "name", "contentType").fields,
  downloadURL: Schema.String,
  ...File.pick("size", "dimensions", "git").fields
}).annotations({ identifier: "File" })

const pageFields = {
  object: Schema.Literal("page"),
  id: ContentPage.fields.id,
  type: ContentPage.fields.kind,
  ...ContentPage.pick("title", "emoji", "icon").fields,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  ...ContentPage.pick("slug").fields,
  path: Schema.String,
  ...ContentPage.pick("description", "href").fields,
  /** A document page's body, as markdown or as a document tree (`format`). */
  markdown: Schema.optional(Schema.String),
  document: Schema.optional(Schema.Unknown),
  ...ContentPage.pick("hidden", "noIndex", "noRobotsIndex", "layout", "git").fields,
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
  ...Revision.pick("id", "parents", "type").fields,
  createdAt: Schema.Date,
  pages: Schema.Array(PageObject),
  files: Schema.Array(FileObject),
  reusableContents: Schema.Array(Schema.Unknown),
  urls: Schema.Struct({ app: Schema.String })
}).annotations({ identifier: "Revision" })

export const LinkStatus = Schema.Literal("ok", "broken", "in-app")

const LinkObject = Schema.Struct({
  status: LinkStatus,
  relation: Schema.Literal("reference"),
  targetReference: Schema.Union(
    Schema.Struct({ kind: Schema.Literal("url"), url: Schema.String }),
    Schema.Struct({ kind: Schema.Literal("page"), page: Schema.String }),
    Schema.Struct({ kind: Schema.Literal("file"), file: Schema.String })
  ),
  locationReferences: Schema.Array(Schema.Struct({ kind: Schema.Literal("page"), page: Schema.String }))
}).annotations({ identifier: "Link" })

export const LinkList = Schema.Struct({
  ...ListOf(LinkObject).fields,
  stats: Schema.Struct({ total: Schema.Number, broken: Schema.Struct({ total: Schema.Number, changeRequest: Schema.Number }) })
})

export const BacklinkObject = Schema.Struct({
  kind: Schema.Literal("page"),
  organization: Schema.String,
  space: Schema.String,
  versionContext: Schema.Struct({ type: Schema.Literal("revision"), revision: Schema.String }),
  page: Schema.Struct({ id: Schema.String, title: Schema.String, path: Schema.String }),
  file: Schema.String
}).annotations({ identifier: "Backlink" })

export const ChangeRequestObject = Schema.Struct({
  object: Schema.Literal("change-request"),
  ...ChangeRequest.pick("id", "number", "status", "subject").fields,
  space: ChangeRequest.fields.spaceId,
  revision: ChangeRequest.fields.revisionId,
  revisionInitial: ChangeRequest.fields.initialRevisionId,
  outdated: Schema.Boolean,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  mergedAt: Schema.optional(Schema.Date),
  createdBy: Schema.Struct({ object: Schema.Literal("user"), id: ChangeRequest.fields.createdBy }),
  urls: Schema.Struct({ location: Schema.String, app: Schema.String })
}).annotations({ identifier: "ChangeRequest" })

export const MergeResult = Schema.Struct({ revision: Schema.String, result: Schema.Literal("merge", "update", "conflicts") })
