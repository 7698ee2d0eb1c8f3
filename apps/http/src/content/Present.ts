import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  type BoundedCache,
  boundedCache,
  type ChangeRequestView,
  type ContentPage,
  documentsAsJson,
  type DomainError,
  type EditedView,
  type File,
  type Link,
  InvalidInput,
  linkedPage,
  type ListKey,
  type Page,
  type PageNode,
  type PageOutcome,
  type PageRequest,
  pageTree,
  type RevisionView
} from "@octavo/domain"
import { Context, Effect, Layer } from "effect"
import { userLocation } from "../identity/Present.js"
import { jsonAnswer, jsonBytes, jsonMembers, type JsonOut, type ListQuery, pageOf, writeArray, writeJson } from "../shared/Handlers.js"
import {
  type BacklinkObject,
  type ChangeRequestObject,
  type ContentUpdateChange,
  type FileObject,
  type LayoutObject,
  PageOwnObject,
  RevisionShell,
  SpaceContentUpdate
} from "./Wire.js"

/** GitBook's layout defaults: every part shown, default width, a hero cover without mask. */
const defaultLayout: typeof LayoutObject.Type = {
  width: "default",
  cover: true,
  coverSize: "hero",
  coverMask: "none",
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true
}

const layoutOf = (page: ContentPage): typeof LayoutObject.Type => {
  const own = page.layout ?? {}
  const coverSize = own.coverSize === "full" || own.coverSize === "background" || own.coverSize === "hero" ? own.coverSize : undefined
  return {
    ...defaultLayout,
    ...(own.cover !== undefined ? { cover: own.cover } : {}),
    ...(coverSize !== undefined ? { coverSize } : {}),
    ...(own.title !== undefined ? { title: own.title } : {}),
    ...(own.description !== undefined ? { description: own.description } : {}),
    ...(own.tableOfContents !== undefined ? { tableOfContents: own.tableOfContents } : {}),
    ...(own.outline !== undefined ? { outline: own.outline } : {}),
    ...(own.pagination !== undefined ? { pagination: own.pagination } : {})
  }
}

const kindOf = { document: "sheet", group: "group", link: "link" } as const

export interface ReadOptions {
  /** false leaves out mutable Git metadata. */
  readonly metadata: boolean
  readonly format: "markdown" | "document"
}

/** The read options of a query; absent ones take their defaults. */
export const readOptions = (
  query: { readonly metadata?: boolean | undefined; readonly format?: "markdown" | "document" | undefined }
): ReadOptions => ({
  metadata: query.metadata ?? true,
  format: query.format ?? "markdown"
})

/** Where a revision's content lives: the space's, or a change request's. */
export const contentPath = (path: { readonly spaceId: string; readonly changeRequestId?: string | undefined }) =>
  path.changeRequestId === undefined
    ? `/v1/spaces/${path.spaceId}`
    : `/v1/spaces/${path.spaceId}/change-requests/${path.changeRequestId}`

/** A link page's target as GitBook's \`ContentRef\`: a URL, or a page of the space (with an anchor, \`anchor\`). */
const linkTargetOf = (href: string) => {
  const linked = linkedPage(href)
  if (linked === undefined) return { kind: "url" as const, url: href }
  return linked.anchor === undefined
    ? { kind: "page" as const, page: linked.page }
    : { kind: "anchor" as const, anchor: linked.anchor, page: linked.page }
}

/** A page's own fields on the wire (`PageOwnObject`), its document aside: the writer puts its JSON text in. */
const ownFields = (page: ContentPage, options: ReadOptions): typeof PageOwnObject.Type => ({
  object: "page",
  id: page.id,
  type: page.kind,
  kind: kindOf[page.kind],
  title: page.title,
  ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
  ...(page.icon !== undefined ? { icon: page.icon } : {}),
  createdAt: page.createdAt,
  updatedAt: page.updatedAt,
  slug: page.slug,
  ...(page.description !== undefined ? { description: page.description } : {}),
  ...(page.href !== undefined && linkedPage(page.href) === undefined ? { href: page.href } : {}),
  ...(page.kind === "link" ? { target: linkTargetOf(page.href ?? "") } : {}),
  ...(page.condition !== undefined ? { condition: page.condition } : {}),
  ...(page.kind === "document" && options.format === "markdown" ? { markdown: page.markdown } : {}),
  hidden: page.hidden,
  noIndex: page.noIndex,
  noRobotsIndex: page.noRobotsIndex,
  ...(page.kind === "document" ? { layout: layoutOf(page), tags: [] } : {}),
  ...(page.kind === "document" && page.cover !== undefined
    ? { cover: { ref: { kind: "file" as const, file: page.cover.file }, yPos: page.cover.yPos ?? 0 } }
    : {}),
  ...(page.git !== undefined && options.metadata ? { git: page.git } : {})
})

const encodeOwnFields = jsonMembers(PageOwnObject)

/** A page's JSON up to its subpages, as bytes, for the page at `path` in space `spaceId`. */
export interface PageHead {
  readonly spaceId: string
  readonly path: string
  readonly bytes: Uint8Array
}

/**
 * By public URL and read options, each page's JSON up to its subpages, as bytes, kept while the page
 * object lives and the page stays at its path. A page object never changes, and a revision shares
 * the objects of the pages it did not change with the revision it was made from (`RevisionContents`
 * keeps them), so an answer of thousands of pages encodes only the pages new since an answer before
 * it, whether that answer was a space's or a change request's.
 */
export class PageHeads extends Context.Tag("@octavo/http/PageHeads")<PageHeads, BoundedCache<string, WeakMap<ContentPage, PageHead>>>() {}

/** The four combinations of read options, for up to four public URLs: a server has one. */
export const PageHeadsLive = Layer.sync(PageHeads, () => boundedCache(16, "oldest"))

const revisionShellMembers = jsonMembers(RevisionShell)

const liveEditMembers = jsonMembers(SpaceContentUpdate.omit("revision"))

/** Wire shapes of revisions, pages and files of a space, with absolute URLs from `base`. */
export const contentPresenters = (base: string, headsKept: PageHeads["Type"]) => {
  /** `under` is where the revision's content lives: the space's, or a change request's. */
  const presentFile =
    (spaceId: string, options: Pick<ReadOptions, "metadata">, under = `/v1/spaces/${spaceId}`) => (f: File): typeof FileObject.Type => ({
      object: "file",
      id: f.id,
      name: f.name,
      contentType: f.contentType,
      downloadURL: `${base}${under}/content/files/${f.id}/download`,
      size: f.size,
      ...(f.dimensions !== undefined ? { dimensions: f.dimensions } : {}),
      ...(f.git !== undefined && options.metadata ? { git: f.git } : {})
    })

  const headsOf = (options: ReadOptions) => headsKept.getOrCompute(`${base} ${options.format} ${options.metadata}`, () => new WeakMap())

  /**
   * Writes a page and the tree below it as JSON into `out`; with `format=document`, `documents` holds the document of
   * each page whose JSON is not kept yet (`documentsBelow`).
   */
  const pageWriter = (spaceId: string, options: ReadOptions, documents: ReadonlyMap<ContentPage, string> = new Map()) => {
    const heads = headsOf(options)
    const headOf = (page: ContentPage, path: string): Uint8Array => {
      let head = heads.get(page)
      if (head === undefined || head.path !== path || head.spaceId !== spaceId) {
        const app = JSON.stringify(`${base}/s/${spaceId}/${path}`)
        const document = options.format === "document" && page.kind === "document"
          ? `,"document":${documents.get(page) ?? "null"}`
          : ""
        const text = `{${encodeOwnFields(ownFields(page, options))}${document},"path":${
          JSON.stringify(path)
        },"urls":{"app":${app}},"pages":`
        head = { spaceId, path, bytes: jsonBytes(text) }
        heads.set(page, head)
      }
      return head.bytes
    }
    const write = (out: JsonOut, { page, path, pages }: PageNode): void => {
      out.push(headOf(page, path))
      writeArray(out, pages, write)
      writeJson(out, "}")
    }
    return write
  }

  /**
   * With `format=document`, the documents of the pages of `nodes` and below whose JSON is not kept, converted off this
   * thread's critical path (`documentsAsJson`); nothing otherwise.
   */
  const documentsBelow = (spaceId: string, options: ReadOptions, nodes: ReadonlyArray<PageNode>) => {
    if (options.format !== "document") return Effect.succeed(new Map<ContentPage, string>())
    const heads = headsOf(options)
    const pages: Array<ContentPage> = []
    const visit = ({ page, path, pages: below }: PageNode): void => {
      const head = heads.get(page)
      const kept = head !== undefined && head.path === path && head.spaceId === spaceId
      if (page.kind === "document" && !kept) pages.push(page)
      below.forEach(visit)
    }
    nodes.forEach(visit)
    return documentsAsJson(pages.map((page) => page.markdown)).pipe(
      Effect.map((documents) => new Map(pages.map((page, i) => [page, documents[i] ?? "null"] as const))),
      Effect.catchTag("Unreadable", ({ rule }) => Effect.fail(new InvalidInput({ field: "format", rule: `the page's document ${rule}` })))
    )
  }

  /** Writes a revision as JSON text into `out`. */
  const revisionWriter = (spaceId: string, options: ReadOptions, under?: string) => (out: JsonOut, view: RevisionView) => {
    const shell = revisionShellMembers({
      object: "revision",
      id: view.revision.id,
      parents: view.revision.parents,
      type: view.revision.type,
      createdAt: view.revision.createdAt,
      // In the order they were added, as the files list pages them.
      files: Array.from(view.content.files.values())
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(presentFile(spaceId, options, under)),
      reusableContents: [],
      tags: [],
      ...(view.mergedFrom !== undefined ? { mergedFrom: presentChangeRequest(view.mergedFrom) } : {}),
      ...(view.git !== undefined
        ? {
          git: {
            oid: view.git.oid,
            message: view.git.message,
            createdByService: view.git.createdByService,
            createdByGitBook: view.git.createdByService,
            ...(view.git.url !== undefined ? { url: view.git.url } : {}),
            ref: view.git.ref
          }
        }
        : {}),
      urls: { app: `${base}/s/${spaceId}/~/revisions/${view.revision.id}` }
    })
    writeJson(out, `{${shell},"pages":`)
    writeArray(out, pageTree(view.content), pageWriter(spaceId, { metadata: options.metadata, format: "markdown" }))
    writeJson(out, "}")
  }

  /** The answer of a revision read. */
  const presentRevision = (spaceId: string, options: ReadOptions, under?: string) => (view: RevisionView) =>
    jsonAnswer((out) => revisionWriter(spaceId, options, under)(out, view))

  /** The answer of a page read: the page and the tree below it. */
  const presentPage = (spaceId: string, options: ReadOptions) => (node: PageNode) =>
    Effect.map(
      documentsBelow(spaceId, options, [node]),
      (documents) => jsonAnswer((out) => pageWriter(spaceId, options, documents)(out, node))
    )

  /** The answer of the pages endpoints: a revision's page tree. */
  const presentPages = (spaceId: string, options: ReadOptions) => (view: RevisionView) =>
    jsonAnswer((out) => {
      writeJson(out, `{"pages":`)
      writeArray(out, pageTree(view.content), pageWriter(spaceId, { metadata: options.metadata, format: "markdown" }))
      writeJson(out, "}")
    })

  /** What a batch did to each page, with where to read the page now (GitBook's `compat=false` answer). */
  const presentOutcomes = (under: string) => (outcome: PageOutcome): typeof ContentUpdateChange.Type => {
    const page = { object: "page" as const, id: outcome.page, urls: { location: `${base}${under}/content/page/${outcome.page}` } }
    switch (outcome.kind) {
      case "created":
        return { object: "created_page", type: "created_page", ...(outcome.ref !== undefined ? { ref: outcome.ref } : {}), page }
      case "updated":
        return { object: "updated_page", type: "updated_page", page }
      case "deleted":
        return { object: "deleted_page", type: "deleted_page", page: outcome.page }
    }
  }

  /** The `compat=false` parts of an edit's answer: each page touched, the files added. */
  const presentEdit = (spaceId: string, under: string) => (edited: EditedView) => ({
    changes: edited.outcomes.map(presentOutcomes(under)),
    insertedFiles: edited.insertedFiles.map(presentFile(spaceId, { metadata: true }, under))
  })

  /** A live edit's answer: the space's new revision, with `compat=false` what the edit did too. */
  const presentLiveEdit = (spaceId: string, compat: boolean) => (edited: EditedView & RevisionView) => {
    const writeRevision = revisionWriter(spaceId, readOptions({}))
    return jsonAnswer((out) => {
      if (compat) return writeRevision(out, edited)
      writeJson(out, `{"revision":`)
      writeRevision(out, edited)
      writeJson(out, `,${liveEditMembers(presentEdit(spaceId, `/v1/spaces/${spaceId}`)(edited))}}`)
    })
  }

  const presentBacklink = (spaceId: string, fileId: string) =>
  (item: {
    readonly page: ContentPage
    readonly path: string
    readonly revision: { readonly id: string }
    readonly organizationId: string
  }): typeof BacklinkObject.Type => ({
    kind: "page",
    organization: item.organizationId,
    space: spaceId,
    versionContext: { type: "revision", revision: item.revision.id },
    page: { id: item.page.id, title: item.page.title, path: item.path },
    file: fileId
  })

  const presentChangeRequest = (
    { changeRequest: cr, createdBy, openComments, outdated }: ChangeRequestView
  ): typeof ChangeRequestObject.Type => ({
    object: "change-request",
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
    createdBy: {
      object: "user",
      id: cr.createdBy,
      displayName: createdBy?.displayName ?? "",
      ...(createdBy?.photoURL !== undefined ? { photoURL: createdBy.photoURL } : {}),
      urls: { location: userLocation(base, cr.createdBy) }
    },
    comments: openComments,
    urls: { location: `${base}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}`, app: `${base}/s/${cr.spaceId}/~/changes/${cr.number}` }
  })

  return {
    presentBacklink,
    presentChangeRequest,
    presentEdit,
    presentFile,
    presentLiveEdit,
    presentPage,
    presentPages,
    presentRevision
  }
}

export interface LinkStats {
  readonly total: number
  readonly broken: { readonly total: number; readonly changeRequest: number }
}

const presentLink = (link: Link) => ({
  status: link.status,
  relation: "reference" as const,
  targetReference: link.target,
  locationReferences: [{ kind: "page" as const, page: link.page }]
})

/** A list of links with its stats, as the links endpoints answer. */
export const linkList = <E extends DomainError, R>(
  key: ListKey,
  query: ListQuery,
  fetch: (request: PageRequest) => Effect.Effect<Page<Link> & { readonly stats: LinkStats }, E, R>
) =>
  Effect.map(pageOf(key, query, fetch), ({ next, page }) => ({
    items: page.items.map(presentLink),
    count: page.count,
    ...next,
    stats: page.stats
  }))

/** A file's bytes as a download. */
export const fileResponse = ({ bytes, file }: { readonly file: File; readonly bytes: Uint8Array }) =>
  HttpServerResponse.uint8Array(bytes, {
    contentType: file.contentType,
    headers: { "content-disposition": `inline; filename="${file.name.replace(/["\\\r\n]/g, "_")}"` }
  })
