import { HttpApiBuilder } from "@effect/platform"
import { type ChangeRequestView, ChangeRequests, NotFound, pageTree } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { contentPresenters } from "../ContentPresent.js"
import { created, domain, listOf, PublicUrl } from "../Present.js"

export const ChangeRequestsLive = HttpApiBuilder.group(OctavoApi, "changeRequests", (handlers) =>
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequests
    const base = yield* PublicUrl
    const { options, presentPage, presentRevision } = contentPresenters(base)
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
        domain(changeRequests.edit(path.spaceId, path.changeRequestId, payload)).pipe(Effect.map(presentRevision(path.spaceId, options({})))))
      .handle("content", ({ path, urlParams }) =>
        domain(changeRequests.content(path.spaceId, path.changeRequestId)).pipe(Effect.map(presentRevision(path.spaceId, options(urlParams)))))
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
      .handle("merge", ({ path }) => domain(changeRequests.merge(path.spaceId, path.changeRequestId)))
      .handle("updateFromSpace", ({ path }) => domain(changeRequests.updateFromSpace(path.spaceId, path.changeRequestId)))
  }))
