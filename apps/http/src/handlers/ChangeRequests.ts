import { HttpApiBuilder } from "@effect/platform"
import { type ChangeRequestView, ChangeRequests, Content, NotFound, pageTree, Spaces } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { contentPresenters, fileResponse, linkList } from "../ContentPresent.js"
import { created, domain, listOf, PublicUrl } from "../Present.js"

export const ChangeRequestsLive = HttpApiBuilder.group(OctavoApi, "changeRequests", (handlers) =>
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequests
    const base = yield* PublicUrl
    const content = yield* Content
    const spaces = yield* Spaces
    const { options, presentBacklink, presentFile, presentPage, presentRevision } = contentPresenters(base)
    const appBase = `${base}/`
    const under = (path: { readonly spaceId: string; readonly changeRequestId: string }) =>
      `/v1/spaces/${path.spaceId}/change-requests/${path.changeRequestId}`
    const present = ({ changeRequest: cr, outdated }: ChangeRequestView) => ({
      object: "change-request" as const,
      id: cr.id,
      number: cr.number,
      status: cr.status,
      subject: cr.subject,
      space: cr.spaceId,
      revision: cr.revisionId,
      revisionInitial: cr.initialRevisionId,
      outdated,
      createdAt: cr.createdAt,
      updatedAt: cr.updatedAt,
      ...(cr.mergedAt !== undefined ? { mergedAt: cr.mergedAt } : {}),
      createdBy: { object: "user" as const, id: cr.createdBy },
      urls: { location: `${base}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}`, app: `${base}/s/${cr.spaceId}/~/changes/${cr.number}` }
    })
    return handlers
      .handle("create", ({ path, payload }) =>
        domain(changeRequests.create(path.spaceId, payload)).pipe(Effect.flatMap((view) => {
          const body = present(view)
          return created(body.urls.location, body)
        })))
      .handle("list", ({ path, urlParams }) =>
        listOf(
          `change-requests:${path.spaceId}:${urlParams.status ?? ""}`,
          urlParams,
          (page) => changeRequests.list(path.spaceId, urlParams.status, page),
          present
        ))
      .handle("get", ({ path }) => domain(changeRequests.get(path.spaceId, path.changeRequestId)).pipe(Effect.map(present)))
      .handle("update", ({ path, payload }) =>
        domain(changeRequests.update(path.spaceId, path.changeRequestId, payload)).pipe(Effect.map(present)))
      .handle("edit", ({ path, payload }) =>
        domain(changeRequests.edit(path.spaceId, path.changeRequestId, payload)).pipe(Effect.map(presentRevision(path.spaceId, options({}), under(path)))))
      .handle("content", ({ path, urlParams }) =>
        domain(changeRequests.content(path.spaceId, path.changeRequestId)).pipe(Effect.map(presentRevision(path.spaceId, options(urlParams), under(path)))))
      .handle("pages", ({ path, urlParams }) =>
        domain(changeRequests.content(path.spaceId, path.changeRequestId)).pipe(Effect.map((view) => ({
          pages: presentRevision(path.spaceId, options(urlParams))(view).pages
        }))))
      .handle("page", ({ path, urlParams }) =>
        domain(changeRequests.content(path.spaceId, path.changeRequestId).pipe(Effect.flatMap((view) => {
          const find = (nodes: ReturnType<typeof pageTree>): ReturnType<typeof pageTree>[number] | undefined => {
            for (const node of nodes) {
              if (node.page.id === path.pageId) return node
              const below = find(node.pages)
              if (below !== undefined) return below
            }
            return undefined
          }
          const node = find(pageTree(view.content))
          return node === undefined
            ? Effect.fail(new NotFound({ entity: "page", id: path.pageId }))
            : Effect.succeed(presentPage(path.spaceId, options(urlParams))(node.page, node.path, node.pages))
        }))))
      .handle("files", ({ path, urlParams }) =>
        listOf(
          `cr-files:${path.spaceId}:${path.changeRequestId}`,
          urlParams,
          (page) => Effect.map(changeRequests.content(path.spaceId, path.changeRequestId), (view) => content.filesIn(view, page)),
          presentFile(path.spaceId, options(urlParams), under(path))
        ))
      .handle("file", ({ path, urlParams }) =>
        domain(changeRequests.content(path.spaceId, path.changeRequestId).pipe(Effect.flatMap((view) => content.fileIn(view, path.fileId))))
          .pipe(Effect.map(presentFile(path.spaceId, options(urlParams), under(path)))))
      .handle("download", ({ path }) =>
        domain(changeRequests.content(path.spaceId, path.changeRequestId).pipe(
          Effect.flatMap((view) => content.fileIn(view, path.fileId)),
          Effect.flatMap((file) => content.fileBytes(file))
        )).pipe(Effect.map(({ bytes, file }) => fileResponse(file, bytes))))
      .handle("fileBacklinks", ({ path, urlParams }) =>
        Effect.flatMap(domain(spaces.getSpace(path.spaceId)), ({ space }) =>
          listOf(
            `cr-backlinks:${path.spaceId}:${path.changeRequestId}:${path.fileId}`,
            urlParams,
            (page) => Effect.flatMap(changeRequests.content(path.spaceId, path.changeRequestId), (view) => content.fileBacklinksIn(view, path.fileId, appBase, page)),
            presentBacklink(space.organizationId, space.id, path.fileId)
          )))
      .handle("pageLinks", ({ path, urlParams }) =>
        linkList(`cr-links:${path.spaceId}:${path.changeRequestId}:${path.pageId}:${urlParams.status ?? ""}`, urlParams, (page) =>
          Effect.flatMap(changeRequests.content(path.spaceId, path.changeRequestId), (view) =>
            content.linksIn(view, appBase, { status: urlParams.status, page: path.pageId }, page, (all) =>
              Effect.succeed(all.filter((l) => l.status === "broken").length)))))
      .handle("merge", ({ path }) => domain(changeRequests.merge(path.spaceId, path.changeRequestId)))
      .handle("updateFromSpace", ({ path }) => domain(changeRequests.updateFromSpace(path.spaceId, path.changeRequestId)))
  }))
