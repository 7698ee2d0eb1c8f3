import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import {
  ChangeRequestStatus,
  ContentChanges,
  CreateChangeRequestInput,
  FileId,
  PageId,
  SpaceId,
  StoredString,
  UpdateChangeRequestInput
} from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SpacePath } from "../spaces/SpacesApi.js"
import { EditQuery, LinksQuery, PageReadQuery, Pages, ReadQuery } from "./ContentApi.js"
import {
  BacklinkObject,
  ChangeRequestContentUpdate,
  ChangeRequestObject,
  FileObject,
  LinkList,
  MergeResult,
  PageObject,
  RevisionObject
} from "./Wire.js"

/** `changeRequestId` is the change request's id or its number in the space. */
export const ChangeRequestPath = Schema.Struct({ spaceId: SpaceId, changeRequestId: StoredString })
const PagePath = Schema.Struct({ ...ChangeRequestPath.fields, pageId: PageId })
const FilePath = Schema.Struct({ ...ChangeRequestPath.fields, fileId: FileId })

export class ChangeRequestsApi extends HttpApiGroup.make("changeRequests")
  .add(
    HttpApiEndpoint.post("create", "/v1/spaces/:spaceId/change-requests")
      .setPath(SpacePath)
      .setPayload(CreateChangeRequestInput)
      .addSuccess(ChangeRequestObject, Created)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/spaces/:spaceId/change-requests")
      .setPath(SpacePath)
      .setUrlParams(Schema.Struct({ ...PageQuery, status: Schema.optional(ChangeRequestStatus) }))
      .addSuccess(ListOf(ChangeRequestObject))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/spaces/:spaceId/change-requests/:changeRequestId")
      .setPath(ChangeRequestPath)
      .addSuccess(ChangeRequestObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.patch("update", "/v1/spaces/:spaceId/change-requests/:changeRequestId")
      .setPath(ChangeRequestPath)
      .setPayload(UpdateChangeRequestInput)
      .addSuccess(ChangeRequestObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("edit", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content")
      .setPath(ChangeRequestPath)
      .setPayload(ContentChanges)
      .setUrlParams(EditQuery)
      .addSuccess(Schema.Union(ChangeRequestObject, ChangeRequestContentUpdate))
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("content", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content")
      .setPath(ChangeRequestPath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(RevisionObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("pages", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/pages")
      .setPath(ChangeRequestPath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(Pages)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("page", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId")
      .setPath(PagePath)
      .setUrlParams(PageReadQuery)
      .addSuccess(PageObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("pageByPath", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/path/:pagePath")
      .setPath(Schema.Struct({ ...ChangeRequestPath.fields, pagePath: StoredString }))
      .setUrlParams(PageReadQuery)
      .addSuccess(PageObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("files", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files")
      .setPath(ChangeRequestPath)
      .setUrlParams(Schema.Struct({ ...PageQuery, ...ReadQuery }))
      .addSuccess(ListOf(FileObject))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("file", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId")
      .setPath(FilePath)
      .setUrlParams(Schema.Struct(ReadQuery))
      .addSuccess(FileObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("download", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/download")
      .setPath(FilePath)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("fileBacklinks", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks")
      .setPath(FilePath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(BacklinkObject))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("pageLinks", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links")
      .setPath(PagePath)
      .setUrlParams(LinksQuery)
      .addSuccess(LinkList)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.post("merge", "/v1/spaces/:spaceId/change-requests/:changeRequestId/merge")
      .setPath(ChangeRequestPath)
      .addSuccess(MergeResult)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("updateFromSpace", "/v1/spaces/:spaceId/change-requests/:changeRequestId/update")
      .setPath(ChangeRequestPath)
      .addSuccess(MergeResult)
      .pipe(errors(400, 403, 404, 409))
  )
  .middleware(Authentication)
{}
