import { Effect } from "effect"
import { Conflict, InvalidInput } from "../shared/Errors.js"
import { FileId, PageId } from "../shared/Ids.js"
import { keyBetween } from "../shared/Position.js"
import { readMarkdown, slugify } from "./Markdown.js"
import type { ContentChange, ContentDelta, File, ContentPage, InsertPage, RevisionContent } from "./Page.js"

/** Largest file a change may carry, decoded. */
export const MAX_FILE_BYTES = 1024 * 1024

export interface ChangeContext {
  readonly now: Date
  readonly newId: Effect.Effect<string>
  /** Keeps a file's bytes and answers their content address. */
  readonly storeBlob: (bytes: Uint8Array) => Effect.Effect<string>
}

const byPosition = (a: ContentPage, b: ContentPage) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1)

const decodeBase64 = (text: string): Uint8Array | undefined => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text.replace(/\s+/g, ""))) return undefined
  try {
    return Uint8Array.from(atob(text.replace(/\s+/g, "")), (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

const extensionTypes: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  zip: "application/zip"
}

/** Width and height of PNG, GIF and JPEG images, read from their headers. */
export const imageDimensions = (bytes: Uint8Array): { readonly width: number; readonly height: number } | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
    return { width: view.getUint32(16), height: view.getUint32(20) }
  }
  if (bytes.length >= 10 && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) {
    return { width: view.getUint16(6, true), height: view.getUint16(8, true) }
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let offset = 2
    while (offset + 9 < bytes.length) {
      if (bytes[offset] !== 0xff) return undefined
      const marker = bytes[offset + 1] ?? 0
      const length = view.getUint16(offset + 2)
      // Start-of-frame markers carry the size; the others are skipped.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: view.getUint16(offset + 7), height: view.getUint16(offset + 5) }
      }
      offset += 2 + length
    }
  }
  return undefined
}

/** A change as the domain applies it: one a caller sent, or a page inserted under an id chosen beforehand (imports). */
export type AppliedChange = ContentChange | (typeof InsertPage.Type & { readonly id: PageId })

/**
 * Applies a batch of changes in order to a revision's content. Any invalid change rejects the
 * whole batch; nothing is written here, the caller stores the delta as a new revision.
 */
export const applyChanges = (
  content: RevisionContent,
  changes: ReadonlyArray<AppliedChange>,
  context: ChangeContext
): Effect.Effect<{ readonly content: RevisionContent; readonly delta: ContentDelta }, InvalidInput | Conflict> =>
  Effect.gen(function*() {
    const pages = new Map(content.pages)
    const files = new Map(content.files)
    const touchedPages = new Set<PageId>()
    const touchedFiles = new Set<FileId>()

    const childrenOf = (parentId: PageId | null, except?: PageId) =>
      Array.from(pages.values()).filter((p) => p.parentId === parentId && p.id !== except).sort(byPosition)

    const isWithin = (candidate: PageId | null, ancestor: PageId): boolean => {
      for (let current = candidate; current !== null; current = pages.get(current)?.parentId ?? null) {
        if (current === ancestor) return true
      }
      return false
    }

    for (const [index, change] of changes.entries()) {
      const field = (name: string) => `changes.${index}.${name}`
      const invalid = (name: string, rule: string) => new InvalidInput({ field: field(name), rule })

      const placeUnder = (into: PageId | null, at: number | undefined, self?: PageId) =>
        Effect.gen(function*() {
          if (into !== null) {
            const parent = pages.get(into)
            if (parent === undefined) return yield* invalid("into", `page ${into} is not in this revision`)
            if (parent.kind === "link") return yield* invalid("into", "a link page cannot hold pages")
            if (self !== undefined && isWithin(into, self)) return yield* invalid("into", "a page cannot move into itself or its subpages")
          }
          const siblings = childrenOf(into, self)
          const where = at ?? siblings.length
          if (where > siblings.length) return yield* invalid("at", `must be at most ${siblings.length}, the number of pages there`)
          return keyBetween(siblings[where - 1]?.position, siblings[where]?.position)
        })

      const requireFreeSlug = (slug: string, parentId: PageId | null, self?: PageId) =>
        childrenOf(parentId, self).some((p) => p.slug === slug)
          ? Effect.fail(new Conflict({ reason: `${field("slug")}: ${slug} is taken by a sibling page` }))
          : Effect.void

      switch (change.type) {
        case "insert_page": {
          const kind = change.kind ?? "document"
          if (kind === "link" && change.href === undefined) return yield* invalid("href", "is required for a link page")
          const read = readMarkdown(change.document?.markdown ?? "", change.title !== undefined)
          const title = change.title ?? read.title ?? "Untitled"
          const into = change.into ?? null
          const position = yield* placeUnder(into, change.at)
          const slug = change.slug ?? slugify(title)
          yield* requireFreeSlug(slug, into)
          const page: ContentPage = {
            id: "id" in change ? change.id : PageId.make(yield* context.newId),
            kind,
            title,
            slug,
            parentId: into,
            position,
            markdown: kind === "document" ? read.body : "",
            hidden: change.hidden ?? read.hidden ?? false,
            noIndex: false,
            noRobotsIndex: false,
            createdAt: context.now,
            updatedAt: context.now,
            ...(change.emoji !== undefined ? { emoji: change.emoji } : {}),
            ...((change.icon ?? read.icon) !== undefined ? { icon: (change.icon ?? read.icon) as string } : {}),
            ...((change.description ?? read.description) !== undefined
              ? { description: (change.description ?? read.description) as string }
              : {}),
            ...(kind === "link" && change.href !== undefined ? { href: change.href } : {}),
            ...(read.layout !== undefined ? { layout: read.layout } : {})
          }
          pages.set(page.id, page)
          touchedPages.add(page.id)
          break
        }
        case "update_page": {
          const current = pages.get(change.page)
          if (current === undefined) return yield* invalid("page", `page ${change.page} is not in this revision`)
          const read = change.document !== undefined ? readMarkdown(change.document.markdown, change.title !== undefined) : undefined
          const into = change.into === undefined ? current.parentId : change.into
          const moves = change.into !== undefined || change.at !== undefined
          const position = moves ? yield* placeUnder(into, change.at, current.id) : current.position
          const title = change.title ?? read?.title ?? current.title
          const slug = change.slug ?? current.slug
          if (slug !== current.slug || into !== current.parentId) yield* requireFreeSlug(slug, into, current.id)
          const description = change.description ?? read?.description
          const icon = change.icon ?? read?.icon
          const updated: ContentPage = {
            ...current,
            title,
            slug,
            parentId: into,
            position,
            markdown: read !== undefined && current.kind === "document" ? read.body : current.markdown,
            hidden: change.hidden ?? read?.hidden ?? current.hidden,
            updatedAt: context.now,
            ...(change.emoji !== undefined ? { emoji: change.emoji } : {}),
            ...(icon !== undefined ? { icon } : {}),
            ...(description !== undefined ? { description } : {}),
            ...(change.href !== undefined && current.kind === "link" ? { href: change.href } : {}),
            ...(read?.layout !== undefined ? { layout: read.layout } : {})
          }
          pages.set(updated.id, updated)
          touchedPages.add(updated.id)
          break
        }
        case "delete_page": {
          if (!pages.has(change.page)) return yield* invalid("page", `page ${change.page} is not in this revision`)
          // The page and everything under it, found before any is removed.
          const doomed = Array.from(pages.keys()).filter((id) => isWithin(id, change.page))
          for (const id of doomed) {
            pages.delete(id)
            touchedPages.add(id)
          }
          break
        }
        case "insert_files": {
          for (const [i, entry] of change.files.entries()) {
            const bytes = decodeBase64(entry.base64)
            if (bytes === undefined) return yield* invalid(`files.${i}.base64`, "must be base64")
            if (bytes.length > MAX_FILE_BYTES) {
              return yield* invalid(`files.${i}.base64`, `must decode to at most ${MAX_FILE_BYTES} bytes, got ${bytes.length}`)
            }
            const extension = entry.name.split(".").pop()?.toLowerCase() ?? ""
            const dimensions = imageDimensions(bytes)
            const file: File = {
              id: FileId.make(yield* context.newId),
              name: entry.name,
              contentType: entry.contentType ?? extensionTypes[extension] ?? "application/octet-stream",
              size: bytes.length,
              blobKey: yield* context.storeBlob(bytes),
              createdAt: context.now,
              ...(dimensions !== undefined ? { dimensions } : {})
            }
            files.set(file.id, file)
            touchedFiles.add(file.id)
          }
          break
        }
      }
    }

    const delta: ContentDelta = {
      pages: Array.from(touchedPages).flatMap((id) => {
        const page = pages.get(id)
        return page === undefined ? [] : [page]
      }),
      deletedPages: Array.from(touchedPages).filter((id) => !pages.has(id) && content.pages.has(id)),
      files: Array.from(touchedFiles).flatMap((id) => {
        const file = files.get(id)
        return file === undefined ? [] : [file]
      }),
      deletedFiles: []
    }
    return { content: { pages, files }, delta }
  })

export interface PageNode {
  readonly page: ContentPage
  readonly path: string
  readonly pages: ReadonlyArray<PageNode>
}

/** The page tree of a revision, siblings in order, each page with its path (slugs joined by "/"). */
export const pageTree = (content: RevisionContent): ReadonlyArray<PageNode> => {
  const byParent = new Map<PageId | null, Array<ContentPage>>()
  for (const page of content.pages.values()) {
    const list = byParent.get(page.parentId) ?? []
    list.push(page)
    byParent.set(page.parentId, list)
  }
  const build = (parentId: PageId | null, prefix: string): ReadonlyArray<PageNode> =>
    (byParent.get(parentId) ?? []).sort(byPosition).map((page) => {
      const path = prefix === "" ? page.slug : `${prefix}/${page.slug}`
      return { page, path, pages: build(page.id, path) }
    })
  return build(null, "")
}

/** A page's path in a revision. */
export const pathOf = (content: RevisionContent, page: ContentPage): string => {
  const slugs: Array<string> = []
  for (
    let current: ContentPage | undefined = page;
    current !== undefined;
    current = current.parentId === null ? undefined : content.pages.get(current.parentId)
  ) {
    slugs.unshift(current.slug)
  }
  return slugs.join("/")
}
