import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { backlinkListKey, Content, ContentFiles, fileListKey, linkListKey, LiveEdits } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { listOf, PublicUrl } from "../shared/Handlers.js"
import { ContentApi } from "./ContentApi.js"
import { contentPresenters, fileResponse, linkList, PageHeads, readOptions } from "./Present.js"

export const ContentLive = HttpApiBuilder.group(OctavoBase.add(ContentApi), "content", (handlers) =>
  Effect.gen(function*() {
    const content = yield* Content
    const files = yield* ContentFiles
    const liveEdits = yield* LiveEdits
    const base = yield* PublicUrl
    const { presentBacklink, presentFile, presentLiveEdit, presentPage, presentPages, presentRevision } = contentPresenters(
      base,
      yield* PageHeads
    )
    const appBase = `${base}/`

    return handlers
      .handle("current", ({ path, urlParams }) =>
        domain(content.current(path.spaceId)).pipe(Effect.map(presentRevision(path.spaceId, readOptions(urlParams)))))
      .handle("editLive", ({ path, payload, urlParams }) =>
        domain(liveEdits.editLive(path.spaceId, payload)).pipe(Effect.map(presentLiveEdit(path.spaceId, urlParams.compat !== false))))
      .handle("revision", ({ path, urlParams }) =>
        domain(content.revisionOf(path.spaceId, path.revisionId)).pipe(Effect.map(presentRevision(path.spaceId, readOptions(urlParams)))))
      .handle("pages", ({ path, urlParams }) =>
        domain(content.current(path.spaceId)).pipe(Effect.map(presentPages(path.spaceId, readOptions(urlParams)))))
      .handle("page", ({ path, urlParams }) =>
        domain(Effect.flatMap(content.page(path.spaceId, path.pageId), presentPage(path.spaceId, readOptions(urlParams)))))
      .handle("pageByPath", ({ path, urlParams }) =>
        domain(Effect.flatMap(content.pageByPath(path.spaceId, path.pagePath), presentPage(path.spaceId, readOptions(urlParams)))))
      .handle("files", ({ path, urlParams }) =>
        listOf(fileListKey(path.spaceId), urlParams, (page) =>
          files.files(path.spaceId, page), presentFile(path.spaceId, readOptions(urlParams))))
      .handle("file", ({ path, urlParams }) =>
        domain(files.file(path.spaceId, path.fileId)).pipe(Effect.map(presentFile(path.spaceId, readOptions(urlParams)))))
      .handle("links", ({ path, urlParams }) =>
        linkList(linkListKey(path.spaceId, { status: urlParams.status }), urlParams, (page) =>
          content.links(path.spaceId, appBase, { status: urlParams.status }, page)))
      .handle("pageLinks", ({ path, urlParams }) =>
        linkList(linkListKey(path.spaceId, { page: path.pageId, status: urlParams.status }), urlParams, (page) =>
          content.links(path.spaceId, appBase, { status: urlParams.status, page: path.pageId }, page)))
      .handle("fileBacklinks", ({ path, urlParams }) =>
        listOf(
          backlinkListKey(path.spaceId, path.fileId),
          urlParams,
          (page) =>
            files.fileBacklinks(path.spaceId, path.fileId, appBase, page),
          presentBacklink(path.spaceId, path.fileId)
        ))
      .handle("download", ({ path }) =>
        domain(files.download(path.spaceId, path.fileId)).pipe(Effect.map(fileResponse)))
  }))
