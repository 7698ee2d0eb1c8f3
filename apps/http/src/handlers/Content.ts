import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Content, encodeCursor, type LinkStatus, type PageId, pageRequest, type SpaceId, Spaces } from "@octavo/domain"
import { Effect, Option } from "effect"
import { OctavoApi } from "../Api.js"
import { contentPresenters } from "../ContentPresent.js"
import { domain, listOf, PublicUrl } from "../Present.js"

export const ContentLive = HttpApiBuilder.group(OctavoApi, "content", (handlers) =>
  Effect.gen(function*() {
    const content = yield* Content
    const spaces = yield* Spaces
    const base = yield* PublicUrl

    const { options, presentFile, presentPage, presentRevision } = contentPresenters(base)

    const appBase = `${base}/`
    const linkList = (
      list: string,
      query: { readonly limit?: number | undefined; readonly page?: string | undefined; readonly status?: LinkStatus | undefined },
      spaceId: SpaceId,
      pageId: PageId | undefined
    ) =>
      domain(Effect.gen(function*() {
        const request = yield* pageRequest(list, query)
        const result = yield* content.links(spaceId, appBase, { status: query.status, page: pageId }, request)
        return {
          items: result.items.map((link) => ({
            status: link.status,
            relation: "reference" as const,
            targetReference: link.target,
            locationReferences: [{ kind: "page" as const, page: link.page }]
          })),
          count: result.count,
          ...Option.match(result.next, { onNone: () => ({}), onSome: (k) => ({ next: { page: encodeCursor(list, k) } }) }),
          stats: result.stats
        }
      }))

    return handlers
      .handle("current", ({ path, urlParams }) =>
        domain(content.current(path.spaceId)).pipe(Effect.map(presentRevision(path.spaceId, options(urlParams)))))
      .handle("editLive", ({ path, payload }) =>
        domain(content.editLive(path.spaceId, payload)).pipe(Effect.map(presentRevision(path.spaceId, options({})))))
      .handle("revision", ({ path, urlParams }) =>
        domain(content.revisionOf(path.spaceId, path.revisionId)).pipe(Effect.map(presentRevision(path.spaceId, options(urlParams)))))
      .handle("pages", ({ path, urlParams }) =>
        domain(content.current(path.spaceId)).pipe(Effect.map((view) => ({ pages: presentRevision(path.spaceId, options(urlParams))(view).pages }))))
      .handle("page", ({ path, urlParams }) =>
        domain(content.page(path.spaceId, path.pageId)).pipe(Effect.map((found) =>
          presentPage(path.spaceId, options(urlParams))(found.page, found.path, found.pages))))
      .handle("pageByPath", ({ path, urlParams }) =>
        domain(content.pageByPath(path.spaceId, decodeURIComponent(path.pagePath))).pipe(Effect.map((found) =>
          presentPage(path.spaceId, options(urlParams))(found.page, found.path, found.pages))))
      .handle("files", ({ path, urlParams }) =>
        listOf(`files:${path.spaceId}`, urlParams, (page) => content.files(path.spaceId, page), presentFile(path.spaceId, options(urlParams))))
      .handle("file", ({ path, urlParams }) =>
        domain(content.file(path.spaceId, path.fileId)).pipe(Effect.map(presentFile(path.spaceId, options(urlParams)))))
      .handle("links", ({ path, urlParams }) => linkList(`links:${path.spaceId}:${urlParams.status ?? ""}`, urlParams, path.spaceId, undefined))
      .handle("pageLinks", ({ path, urlParams }) =>
        linkList(`links:${path.spaceId}:${path.pageId}:${urlParams.status ?? ""}`, urlParams, path.spaceId, path.pageId))
      .handle("fileBacklinks", ({ path, urlParams }) =>
        Effect.flatMap(domain(spaces.getSpace(path.spaceId)), (space) =>
          listOf(`backlinks:${path.spaceId}:${path.fileId}`, urlParams, (page) => content.fileBacklinks(path.spaceId, path.fileId, appBase, page), (item) => ({
            kind: "page" as const,
            organization: space.space.organizationId,
            space: path.spaceId,
            versionContext: { type: "revision" as const, revision: item.revision.id },
            page: { id: item.page.id, title: item.page.title, path: item.path },
            file: path.fileId
          }))))
      .handle("download", ({ path }) =>
        domain(content.download(path.spaceId, path.fileId)).pipe(Effect.map(({ bytes, file }) =>
          HttpServerResponse.uint8Array(bytes, {
            contentType: file.contentType,
            headers: { "content-disposition": `inline; filename="${file.name.replace(/["\\\r\n]/g, "_")}"` }
          }))))
  }))
