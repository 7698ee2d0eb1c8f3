import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { ContentChanges, FileId, PageId, RevisionId, SpaceId } from "@octavo/domain"
import { Schema } from "effect"
import { BooleanFromString, ListOf, PageQuery } from "./Common.js"
import { FileObject, PageObject, RevisionObject } from "./ContentWire.js"
import { Authentication } from "./Security.js"

const SpacePath = Schema.Struct({ spaceId: SpaceId })
/** `metadata=false` leaves out mutable Git metadata; `computed` is accepted (nothing is computed yet). */
const ReadQuery = { metadata: Schema.optional(BooleanFromString), computed: Schema.optional(BooleanFromString) }
const PageFormat = Schema.Literal("markdown", "document")
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

export class ContentApi extends HttpApiGroup.make("content")
  .add(HttpApiEndpoint.get("current", "/v1/spaces/:spaceId/content").setPath(SpacePath).setUrlParams(Schema.Struct(ReadQuery)).addSuccess(RevisionObject))
  .add(HttpApiEndpoint.post("editLive", "/v1/spaces/:spaceId/content").setPath(SpacePath).setPayload(ContentChanges).addSuccess(RevisionObject))
  .add(
    HttpApiEndpoint.get("revision", "/v1/spaces/:spaceId/revisions/:revisionId")
      .setPath(Schema.Struct({ spaceId: SpaceId, revisionId: RevisionId }))
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(RevisionObject)
  )
  .add(
    HttpApiEndpoint.get("pages", "/v1/spaces/:spaceId/content/pages")
      .setPath(SpacePath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(Schema.Struct({ pages: Schema.Array(PageObject) }))
  )
  .add(
    HttpApiEndpoint.get("page", "/v1/spaces/:spaceId/content/page/:pageId")
      .setPath(Schema.Struct({ spaceId: SpaceId, pageId: PageId }))
      .setUrlParams(Schema.Struct({ ...ReadQuery, format: Schema.optional(PageFormat) }))
      .addSuccess(PageObject)
  )
  .add(
    HttpApiEndpoint.get("pageByPath", "/v1/spaces/:spaceId/content/path/:pagePath")
      .setPath(Schema.Struct({ spaceId: SpaceId, pagePath: Schema.String }))
      .setUrlParams(Schema.Struct({ ...ReadQuery, format: Schema.optional(PageFormat) }))
      .addSuccess(PageObject)
  )
  .add(
    HttpApiEndpoint.get("files", "/v1/spaces/:spaceId/content/files")
      .setPath(SpacePath)
      .setUrlParams(Schema.Struct({ ...PageQuery, ...ReadQuery }))
      .addSuccess(ListOf(FileObject))
  )
  .add(
    HttpApiEndpoint.get("file", "/v1/spaces/:spaceId/content/files/:fileId")
      .setPath(Schema.Struct({ spaceId: SpaceId, fileId: FileId }))
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(FileObject)
  )
  .add(
    HttpApiEndpoint.get("download", "/v1/spaces/:spaceId/content/files/:fileId/download")
      .setPath(Schema.Struct({ spaceId: SpaceId, fileId: FileId }))
  )
  .add(
    HttpApiEndpoint.get("links", "/v1/spaces/:spaceId/links")
      .setPath(SpacePath)
      .setUrlParams(Schema.Struct({ ...PageQuery, status: Schema.optional(LinkStatus) }))
      .addSuccess(LinkList)
  )
  .add(
    HttpApiEndpoint.get("pageLinks", "/v1/spaces/:spaceId/content/page/:pageId/links")
      .setPath(Schema.Struct({ spaceId: SpaceId, pageId: PageId }))
      .setUrlParams(Schema.Struct({ ...PageQuery, status: Schema.optional(LinkStatus) }))
      .addSuccess(LinkList)
  )
  .add(
    HttpApiEndpoint.get("fileBacklinks", "/v1/spaces/:spaceId/content/files/:fileId/backlinks")
      .setPath(Schema.Struct({ spaceId: SpaceId, fileId: FileId }))
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(BacklinkObject))
  )
  .middleware(Authentication)
{}
