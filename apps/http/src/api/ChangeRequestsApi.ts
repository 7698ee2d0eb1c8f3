import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { ChangeRequestStatus, ContentChanges, CreateChangeRequestInput, FileId, PageId, SpaceId, UpdateChangeRequestInput } from "@octavo/domain"
import { Schema } from "effect"
import { BooleanFromString, Created, ListOf, PageQuery } from "./Common.js"
import { BacklinkObject, LinkList, LinkStatus } from "./ContentApi.js"
import { FileObject, PageObject, RevisionObject } from "./ContentWire.js"
import { Authentication } from "./Security.js"

const SpacePath = Schema.Struct({ spaceId: SpaceId })
/** `changeRequestId` is the change request's id or its number in the space. */
const ChangeRequestPath = Schema.Struct({ spaceId: SpaceId, changeRequestId: Schema.String })
const FilePath = Schema.Struct({ spaceId: SpaceId, changeRequestId: Schema.String, fileId: FileId })
const ReadQuery = { metadata: Schema.optional(BooleanFromString), computed: Schema.optional(BooleanFromString) }

export const ChangeRequestObject = Schema.Struct({
  object: Schema.Literal("change-request"),
  id: Schema.String,
  number: Schema.Number,
  status: ChangeRequestStatus,
  subject: Schema.String,
  space: Schema.String,
  revision: Schema.String,
  revisionInitial: Schema.String,
  outdated: Schema.Boolean,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  mergedAt: Schema.optional(Schema.Date),
  createdBy: Schema.Struct({ object: Schema.Literal("user"), id: Schema.String }),
  urls: Schema.Struct({ location: Schema.String, app: Schema.String })
}).annotations({ identifier: "ChangeRequest" })

const MergeResult = Schema.Struct({ revision: Schema.String, result: Schema.Literal("merge", "update", "conflicts") })

export class ChangeRequestsApi extends HttpApiGroup.make("changeRequests")
  .add(
    HttpApiEndpoint.post("create", "/v1/spaces/:spaceId/change-requests")
      .setPath(SpacePath)
      .setPayload(CreateChangeRequestInput)
      .addSuccess(ChangeRequestObject, Created)
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/spaces/:spaceId/change-requests")
      .setPath(SpacePath)
      .setUrlParams(Schema.Struct({ ...PageQuery, status: Schema.optional(ChangeRequestStatus) }))
      .addSuccess(ListOf(ChangeRequestObject))
  )
  .add(HttpApiEndpoint.get("get", "/v1/spaces/:spaceId/change-requests/:changeRequestId").setPath(ChangeRequestPath).addSuccess(ChangeRequestObject))
  .add(
    HttpApiEndpoint.patch("update", "/v1/spaces/:spaceId/change-requests/:changeRequestId")
      .setPath(ChangeRequestPath)
      .setPayload(UpdateChangeRequestInput)
      .addSuccess(ChangeRequestObject)
  )
  .add(
    HttpApiEndpoint.post("edit", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content")
      .setPath(ChangeRequestPath)
      .setPayload(ContentChanges)
      .addSuccess(RevisionObject)
  )
  .add(
    HttpApiEndpoint.get("content", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content")
      .setPath(ChangeRequestPath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(RevisionObject)
  )
  .add(
    HttpApiEndpoint.get("pages", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/pages")
      .setPath(ChangeRequestPath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(Schema.Struct({ pages: Schema.Array(PageObject) }))
  )
  .add(
    HttpApiEndpoint.get("page", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId")
      .setPath(Schema.Struct({ spaceId: SpaceId, changeRequestId: Schema.String, pageId: PageId }))
      .setUrlParams(Schema.Struct({ ...ReadQuery, format: Schema.optional(Schema.Literal("markdown", "document")) }))
      .addSuccess(PageObject)
  )
  .add(
    HttpApiEndpoint.get("files", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files")
      .setPath(ChangeRequestPath)
      .setUrlParams(Schema.Struct({ ...PageQuery, ...ReadQuery }))
      .addSuccess(ListOf(FileObject))
  )
  .add(
    HttpApiEndpoint.get("file", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId")
      .setPath(FilePath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(FileObject)
  )
  .add(HttpApiEndpoint.get("download", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/download").setPath(FilePath))
  .add(
    HttpApiEndpoint.get("fileBacklinks", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks")
      .setPath(FilePath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(BacklinkObject))
  )
  .add(
    HttpApiEndpoint.get("pageLinks", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links")
      .setPath(Schema.Struct({ spaceId: SpaceId, changeRequestId: Schema.String, pageId: PageId }))
      .setUrlParams(Schema.Struct({ ...PageQuery, status: Schema.optional(LinkStatus) }))
      .addSuccess(LinkList)
  )
  .add(HttpApiEndpoint.post("merge", "/v1/spaces/:spaceId/change-requests/:changeRequestId/merge").setPath(ChangeRequestPath).addSuccess(MergeResult))
  .add(HttpApiEndpoint.post("updateFromSpace", "/v1/spaces/:spaceId/change-requests/:changeRequestId/update").setPath(ChangeRequestPath).addSuccess(MergeResult))
  .middleware(Authentication)
{}
