import { HttpApiBuilder } from "@effect/platform"
import { backlinkListKey, changeRequestListKey, ChangeRequests, Content, fileListKey, linkListKey, pageIn, type SpaceId, Spaces } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { ChangeRequestsApi } from "./ChangeRequestsApi.js"
import { contentPath, contentPresenters, fileResponse, linkList, readOptions } from "./Present.js"

export const ChangeRequestsLive = HttpApiBuilder.group(OctavoBase.add(ChangeRequestsApi), "changeRequests", (handlers) =>
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequests
    const base = yield* PublicUrl
    const content = yield* Content
    const spaces = yield* Spaces
    const { presentBacklink, presentChangeRequest, presentFile, presentPage, presentPages, presentRevision } = contentPresenters(base)
    const present = presentChangeRequest
    const appBase = `${base}/`
    /** The change request's content, as its path names it. */
    const contentOf = (path: { readonly spaceId: SpaceId; readonly changeRequestId: string }) =>
      changeRequests.content(path.spaceId, path.changeRequestId)
    return handlers
      .handle("create", ({ path, payload }) => domain(changeRequests.create(path.spaceId, payload)).pipe(Effect.flatMap(createdAs(present))))
      .handle("list", ({ path, urlParams }) =>
        listOf(
          changeRequestListKey(path.spaceId, urlParams.status),
          urlParams,
          (page) => changeRequests.list(path.spaceId, urlParams.status, page),
          present
        ))
      .handle("get", ({ path }) => domain(changeRequests.get(path.spaceId, path.changeRequestId)).pipe(Effect.map(present)))
      .handle("update", ({ path, payload }) =>
        domain(changeRequests.update(path.spaceId, path.changeRequestId, payload)).pipe(Effect.map(present)))
      .handle("edit", ({ path, payload }) =>
        domain(changeRequests.edit(path.spaceId, path.changeRequestId, payload)).pipe(
          Effect.map(presentRevision(path.spaceId, readOptions({}), contentPath(path)))
        ))
      .handle("content", ({ path, urlParams }) =>
        domain(contentOf(path)).pipe(Effect.map(presentRevision(path.spaceId, readOptions(urlParams), contentPath(path)))))
      .handle("pages", ({ path, urlParams }) => domain(contentOf(path)).pipe(Effect.map(presentPages(path.spaceId, readOptions(urlParams)))))
      .handle("page", ({ path, urlParams }) =>
        domain(Effect.flatMap(contentOf(path), (view) => pageIn(view.content, path.pageId))).pipe(
          Effect.map(presentPage(path.spaceId, readOptions(urlParams)))
        ))
      .handle("files", ({ path, urlParams }) =>
        listOf(
          fileListKey(path.spaceId, path.changeRequestId),
          urlParams,
          (page) => Effect.map(contentOf(path), (view) => content.filesIn(view, page)),
          presentFile(path.spaceId, readOptions(urlParams), contentPath(path))
        ))
      .handle("file", ({ path, urlParams }) =>
        domain(Effect.flatMap(contentOf(path), (view) => content.fileIn(view, path.fileId))).pipe(
          Effect.map(presentFile(path.spaceId, readOptions(urlParams), contentPath(path)))
        ))
      .handle("download", ({ path }) =>
        domain(contentOf(path).pipe(
          Effect.flatMap((view) => content.fileIn(view, path.fileId)),
          Effect.flatMap(content.fileBytes)
        )).pipe(Effect.map(fileResponse)))
      .handle("fileBacklinks", ({ path, urlParams }) =>
        // The space is read for its organization, which each backlink names.
        Effect.flatMap(domain(spaces.get(path.spaceId)), ({ space }) =>
          listOf(
            backlinkListKey(path.spaceId, path.fileId, path.changeRequestId),
            urlParams,
            (page) => Effect.flatMap(contentOf(path), (view) => content.fileBacklinksIn(view, space.organizationId, path.fileId, appBase, page)),
            presentBacklink(path.spaceId, path.fileId)
          )))
      .handle("pageLinks", ({ path, urlParams }) =>
        linkList(linkListKey(path.spaceId, { changeRequest: path.changeRequestId, page: path.pageId, status: urlParams.status }), urlParams, (page) =>
          Effect.flatMap(contentOf(path), (view) =>
            // A change request's broken links are its own.
            content.linksIn(view, appBase, { status: urlParams.status, page: path.pageId }, page, (all) =>
              Effect.succeed(all.filter((l) => l.status === "broken").length)))))
      .handle("merge", ({ path }) => domain(changeRequests.merge(path.spaceId, path.changeRequestId)))
      .handle("updateFromSpace", ({ path }) => domain(changeRequests.updateFromSpace(path.spaceId, path.changeRequestId)))
  }))
