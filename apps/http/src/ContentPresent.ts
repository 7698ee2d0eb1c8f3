import {
  type ContentPage,
  type DomainError,
  encodeCursor,
  type File,
  type Link,
  markdownToDocument,
  type Page,
  type PageNode,
  type PageRequest,
  pageRequest,
  pageTree,
  type RevisionView
} from "@octavo/domain"
import { HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { domain } from "./Present.js"
import type { PageObject } from "./api/ContentWire.js"

export interface ReadOptions {
  /** false leaves out mutable Git metadata. */
  readonly metadata: boolean
  readonly format: "markdown" | "document"
}

/** Wire shapes of revisions, pages and files of a space, with absolute URLs from `base`. */
export const contentPresenters = (base: string) => {
  /** `under` is where the revision's content lives: the space's, or a change request's. */
  const presentFile = (spaceId: string, options: Pick<ReadOptions, "metadata">, under = `/v1/spaces/${spaceId}`) => (f: File) => ({
    object: "file" as const,
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: `${base}${under}/content/files/${f.id}/download`,
    size: f.size,
    ...(f.dimensions !== undefined ? { dimensions: f.dimensions } : {}),
    ...(f.git !== undefined && options.metadata ? { git: f.git } : {})
  })

  const presentPage = (spaceId: string, options: ReadOptions) => {
    const one = (page: ContentPage, path: string, children: ReadonlyArray<PageNode>): PageObject => ({
      object: "page",
      id: page.id,
      type: page.kind,
      title: page.title,
      ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
      ...(page.icon !== undefined ? { icon: page.icon } : {}),
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
      slug: page.slug,
      path,
      ...(page.description !== undefined ? { description: page.description } : {}),
      ...(page.href !== undefined ? { href: page.href } : {}),
      ...(page.kind === "document"
        ? options.format === "document" ? { document: markdownToDocument(page.markdown) } : { markdown: page.markdown }
        : {}),
      hidden: page.hidden,
      noIndex: page.noIndex,
      noRobotsIndex: page.noRobotsIndex,
      ...(page.layout !== undefined ? { layout: page.layout } : {}),
      ...(page.git !== undefined && options.metadata ? { git: page.git } : {}),
      urls: { app: `${base}/s/${spaceId}/${path}` },
      pages: children.map((node) => one(node.page, node.path, node.pages))
    })
    return one
  }

  const presentRevision = (spaceId: string, options: ReadOptions, under?: string) => (view: RevisionView) => {
    const page = presentPage(spaceId, options)
    return {
      object: "revision" as const,
      id: view.revision.id,
      parents: view.revision.parents,
      type: view.revision.type,
      createdAt: view.revision.createdAt,
      pages: pageTree(view.content).map((node) => page(node.page, node.path, node.pages)),
      // In the order they were added, as the files list pages them.
      files: Array.from(view.content.files.values())
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(presentFile(spaceId, options, under)),
      reusableContents: [],
      urls: { app: `${base}/s/${spaceId}/~/revisions/${view.revision.id}` }
    }
  }

  const options = (query: { readonly metadata?: boolean | undefined; readonly format?: "markdown" | "document" | undefined }): ReadOptions => ({
    metadata: query.metadata ?? true,
    format: query.format ?? "markdown"
  })

  const presentBacklink = (organizationId: string, spaceId: string, fileId: string) =>
  (item: { readonly page: ContentPage; readonly path: string; readonly revision: { readonly id: string } }) => ({
    kind: "page" as const,
    organization: organizationId,
    space: spaceId,
    versionContext: { type: "revision" as const, revision: item.revision.id },
    page: { id: item.page.id, title: item.page.title, path: item.path },
    file: fileId
  })

  return { options, presentBacklink, presentFile, presentPage, presentRevision }
}

/** A list of links with its stats, as the links endpoints answer. */
export const linkList = <R>(
  list: string,
  query: { readonly limit?: number | undefined; readonly page?: string | undefined },
  fetch: (request: PageRequest) => Effect.Effect<Page<Link> & { readonly stats: LinkStats }, DomainError, R>
) =>
  domain(Effect.gen(function*() {
    const result = yield* fetch(yield* pageRequest(list, query))
    return {
      items: result.items.map((link) => ({
        status: link.status,
        relation: "reference" as const,
        targetReference: link.target,
        locationReferences: [{ kind: "page" as const, page: link.page }]
      })),
      count: result.count,
      ...Option.match(result.next, { onNone: () => ({}), onSome: (keyset) => ({ next: { page: encodeCursor(list, keyset) } }) }),
      stats: result.stats
    }
  }))

export interface LinkStats {
  readonly total: number
  readonly broken: { readonly total: number; readonly changeRequest: number }
}

/** A file's bytes as a download. */
export const fileResponse = (file: File, bytes: Uint8Array) =>
  HttpServerResponse.uint8Array(bytes, {
    contentType: file.contentType,
    headers: { "content-disposition": `inline; filename="${file.name.replace(/["\\\r\n]/g, "_")}"` }
  })
