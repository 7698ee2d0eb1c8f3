import { HttpApiBuilder } from "@effect/platform"
import { Content, Spaces } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { contentPresenters, fileResponse, linkList } from "../ContentPresent.js"
import { domain, listOf, PublicUrl } from "../Present.js"

export const ContentLive = HttpApiBuilder.group(OctavoApi, "content", (handlers) =>
  Effect.gen(function*() {
    const content = yield* Content
    const spaces = yield* Spaces
    const base = yield* PublicUrl

    const { options, presentBacklink, presentFile, presentPage, presentRevision } = contentPresenters(base)
    const appBase = `${base}/`

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
      .handle("links", ({ path, urlParams }) =>
        linkList(`links:${path.spaceId}:${urlParams.status ?? ""}`, urlParams, (page) =>
          content.links(path.spaceId, appBase, { status: urlParams.status }, page)))
      .handle("pageLinks", ({ path, urlParams }) =>
        linkList(`links:${path.spaceId}:${path.pageId}:${urlParams.status ?? ""}`, urlParams, (page) =>
          content.links(path.spaceId, appBase, { status: urlParams.status, page: path.pageId }, page)))
      .handle("fileBacklinks", ({ path, urlParams }) =>
        Effect.flatMap(domain(spaces.getSpace(path.spaceId)), ({ space }) =>
          listOf(
            `backlinks:${path.spaceId}:${path.fileId}`,
            urlParams,
            (page) => content.fileBacklinks(path.spaceId, path.fileId, appBase, page),
            presentBacklink(space.organizationId, space.id, path.fileId)
          )))
      .handle("download", ({ path }) =>
        domain(content.download(path.spaceId, path.fileId)).pipe(Effect.map(({ bytes, file }) => fileResponse(file, bytes))))
  }))
