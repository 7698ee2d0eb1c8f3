import { type ContentPage, type File, markdownToDocument, type PageNode, pageTree, type RevisionView } from "@octavo/domain"
import type { PageObject } from "./api/ContentWire.js"

export interface ReadOptions {
  /** false leaves out mutable Git metadata. */
  readonly metadata: boolean
  readonly format: "markdown" | "document"
}

/** Wire shapes of revisions, pages and files of a space, with absolute URLs from `base`. */
export const contentPresenters = (base: string) => {
  const presentFile = (spaceId: string, options: Pick<ReadOptions, "metadata">) => (f: File) => ({
    object: "file" as const,
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: `${base}/v1/spaces/${spaceId}/content/files/${f.id}/download`,
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

  const presentRevision = (spaceId: string, options: ReadOptions) => (view: RevisionView) => {
    const page = presentPage(spaceId, options)
    return {
      object: "revision" as const,
      id: view.revision.id,
      parents: view.revision.parents,
      type: view.revision.type,
      createdAt: view.revision.createdAt,
      pages: pageTree(view.content).map((node) => page(node.page, node.path, node.pages)),
      files: Array.from(view.content.files.values()).map(presentFile(spaceId, options)),
      reusableContents: [],
      urls: { app: `${base}/s/${spaceId}/~/revisions/${view.revision.id}` }
    }
  }

  const options = (query: { readonly metadata?: boolean | undefined; readonly format?: "markdown" | "document" | undefined }): ReadOptions => ({
    metadata: query.metadata ?? true,
    format: query.format ?? "markdown"
  })

  return { options, presentFile, presentPage, presentRevision }
}
