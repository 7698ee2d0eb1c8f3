import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  backlinkListKey,
  ChangeRequestContent,
  changeRequestListKey,
  ChangeRequestMerges,
  ChangeRequests,
  fileListKey,
  linkListKey
} from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { ChangeRequestsApi } from "./ChangeRequestsApi.js"
import { contentPath, contentPresenters, fileResponse, linkList, PageHeads, readOptions } from "./Present.js"

export const ChangeRequestsLive = HttpApiBuilder.group(
  OctavoBase.add(ChangeRequestsApi),
  "changeRequests",
  (handlers) =>
    Effect.gen(function*() {
      const changeRequests = yield* ChangeRequests
      const content = yield* ChangeRequestContent
      const merges = yield* ChangeRequestMerges
      const base = yield* PublicUrl
      const { presentBacklink, presentChangeRequest, presentEdit, presentFile, presentPage, presentPages, presentRevision } =
        contentPresenters(base, yield* PageHeads)
      const present = presentChangeRequest
      const appBase = `${base}/`
      return handlers
        .handle(
          "create",
          ({ path, payload }) => domain(changeRequests.create(path.spaceId, payload)).pipe(Effect.flatMap(createdAs(present)))
        )
        .handle("list", ({ path, urlParams }) =>
          listOf(
            changeRequestListKey(path.spaceId, urlParams.status),
            urlParams,
            (page) => changeRequests.list(path.spaceId, urlParams.status, page),
            present
          ))
        .handle("get", ({ path }) => domain(changeRequests.get(path.spaceId, path.changeRequestId)).pipe(Effect.map(present)))
        .handle(
          "update",
          ({ path, payload }) => domain(changeRequests.update(path.spaceId, path.changeRequestId, payload)).pipe(Effect.map(present))
        )
        .handle("edit", ({ path, payload, urlParams }) =>
          domain(content.edit(path.spaceId, path.changeRequestId, payload)).pipe(
            Effect.map((edited) =>
              urlParams.compat === false
                ? { changeRequest: present(edited.changeRequest), ...presentEdit(path.spaceId, contentPath(path))(edited) }
                : present(edited.changeRequest)
            )
          ))
        .handle(
          "content",
          ({ path, urlParams }) =>
            domain(content.content(path.spaceId, path.changeRequestId)).pipe(
              Effect.map(presentRevision(path.spaceId, readOptions(urlParams), contentPath(path)))
            )
        )
        .handle(
          "pages",
          ({ path, urlParams }) =>
            domain(content.content(path.spaceId, path.changeRequestId)).pipe(
              Effect.map(presentPages(path.spaceId, readOptions(urlParams)))
            )
        )
        .handle(
          "page",
          ({ path, urlParams }) =>
            domain(
              Effect.flatMap(
                content.page(path.spaceId, path.changeRequestId, path.pageId),
                presentPage(path.spaceId, readOptions(urlParams))
              )
            )
        )
        .handle("pageByPath", ({ path, urlParams }) =>
          domain(
            Effect.flatMap(
              content.pageByPath(path.spaceId, path.changeRequestId, path.pagePath),
              presentPage(path.spaceId, readOptions(urlParams))
            )
          ))
        .handle("files", ({ path, urlParams }) =>
          listOf(
            fileListKey(path.spaceId, path.changeRequestId),
            urlParams,
            (page) => content.files(path.spaceId, path.changeRequestId, page),
            presentFile(path.spaceId, readOptions(urlParams), contentPath(path))
          ))
        .handle("file", ({ path, urlParams }) =>
          domain(content.file(path.spaceId, path.changeRequestId, path.fileId)).pipe(
            Effect.map(presentFile(path.spaceId, readOptions(urlParams), contentPath(path)))
          ))
        .handle(
          "download",
          ({ path }) => domain(content.download(path.spaceId, path.changeRequestId, path.fileId)).pipe(Effect.map(fileResponse))
        )
        .handle("fileBacklinks", ({ path, urlParams }) =>
          listOf(
            backlinkListKey(path.spaceId, path.fileId, path.changeRequestId),
            urlParams,
            (page) => content.fileBacklinks(path.spaceId, path.changeRequestId, path.fileId, appBase, page),
            presentBacklink(path.spaceId, path.fileId)
          ))
        .handle(
          "pageLinks",
          ({ path, urlParams }) =>
            linkList(
              linkListKey(path.spaceId, { changeRequest: path.changeRequestId, page: path.pageId, status: urlParams.status }),
              urlParams,
              (page) => content.links(path.spaceId, path.changeRequestId, appBase, { status: urlParams.status, page: path.pageId }, page)
            )
        )
        .handle("merge", ({ path }) => domain(merges.merge(path.spaceId, path.changeRequestId)))
        .handle("updateFromSpace", ({ path }) => domain(merges.updateFromSpace(path.spaceId, path.changeRequestId)))
    })
)
