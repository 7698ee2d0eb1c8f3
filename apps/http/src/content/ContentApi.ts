import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { ContentChanges, FileId, PageId, RevisionId, SpaceId, StoredString } from "@octavo/domain"
import { Schema } from "effect"
import { BooleanFromString, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SpacePath } from "../spaces/SpacesApi.js"
import { BacklinkObject, FileObject, LinkList, LinkStatus, PageObject, RevisionObject, SpaceContentUpdate } from "./Wire.js"

/** `metadata=false` leaves out mutable Git metadata; `computed` is accepted (nothing is computed yet). */
export const ReadQuery = { metadata: Schema.optional(BooleanFromString), computed: Schema.optional(BooleanFromString) }
/** A page's body as markdown (the default) or as a document tree. */
export const PageReadQuery = Schema.Struct({ ...ReadQuery, format: Schema.optional(Schema.Literal("markdown", "document")) })
export const LinksQuery = Schema.Struct({ ...PageQuery, status: Schema.optional(LinkStatus) })
export const Pages = Schema.Struct({ pages: Schema.Array(PageObject) })
/** GitBook's `compat`: true (the default) answers as before, false adds what the batch did to each page. */
export const EditQuery = Schema.Struct({ compat: Schema.optional(BooleanFromString) })

const PagePath = Schema.Struct({ spaceId: SpaceId, pageId: PageId })
const FilePath = Schema.Struct({ spaceId: SpaceId, fileId: FileId })

export class ContentApi extends HttpApiGroup.make("content")
  .add(
    HttpApiEndpoint.get("current", "/v1/spaces/:spaceId/content")
      .setPath(SpacePath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(RevisionObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.post("editLive", "/v1/spaces/:spaceId/content")
      .setPath(SpacePath)
      .setPayload(ContentChanges)
      .setUrlParams(EditQuery)
      .addSuccess(Schema.Union(RevisionObject, SpaceContentUpdate))
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("revision", "/v1/spaces/:spaceId/revisions/:revisionId")
      .setPath(Schema.Struct({ spaceId: SpaceId, revisionId: RevisionId }))
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(RevisionObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("pages", "/v1/spaces/:spaceId/content/pages")
      .setPath(SpacePath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(Pages)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("page", "/v1/spaces/:spaceId/content/page/:pageId")
      .setPath(PagePath)
      .setUrlParams(PageReadQuery)
      .addSuccess(PageObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("pageByPath", "/v1/spaces/:spaceId/content/path/:pagePath")
      .setPath(Schema.Struct({ spaceId: SpaceId, pagePath: StoredString }))
      .setUrlParams(PageReadQuery)
      .addSuccess(PageObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("files", "/v1/spaces/:spaceId/content/files")
      .setPath(SpacePath)
      .setUrlParams(Schema.Struct({ ...PageQuery, ...ReadQuery }))
      .addSuccess(ListOf(FileObject))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("file", "/v1/spaces/:spaceId/content/files/:fileId")
      .setPath(FilePath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(FileObject)
      .pipe(errors(400, 404))
  )
  .add(HttpApiEndpoint.get("download", "/v1/spaces/:spaceId/content/files/:fileId/download").setPath(FilePath).pipe(errors(400, 404)))
  .add(
    HttpApiEndpoint.get("links", "/v1/spaces/:spaceId/links").setPath(SpacePath).setUrlParams(LinksQuery).addSuccess(LinkList).pipe(
      errors(400, 404)
    )
  )
  .add(
    HttpApiEndpoint.get("pageLinks", "/v1/spaces/:spaceId/content/page/:pageId/links")
      .setPath(PagePath)
      .setUrlParams(LinksQuery)
      .addSuccess(LinkList)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("fileBacklinks", "/v1/spaces/:spaceId/content/files/:fileId/backlinks")
      .setPath(FilePath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(BacklinkObject))
      .pipe(errors(400, 404))
  )
  .middleware(Authentication)
{}
