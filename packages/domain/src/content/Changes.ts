import { fromDocument, type JSONDocument, markdownProblem } from "@octavo/markdown"
import { Effect } from "effect"
import { Conflict, InvalidInput } from "../shared/Errors.js"
import { type HeavyWorkRunner, linksTask, readPageTask, runHere } from "../shared/HeavyWork.js"
import { FileId, PageId, type RevisionId } from "../shared/Ids.js"
import { forEachInTurns } from "../shared/Turns.js"
import { keyBetween } from "../shared/Position.js"
import { slugify } from "./Markdown.js"
import type { ContentChange, ContentDelta, ContentPage, DocumentInput, File, InsertPage, RevisionContent } from "./Page.js"
import { byPosition, pathIndex, resolveLinksWith } from "./Resolve.js"
import { makeSiblingPages, type SiblingPages } from "./Siblings.js"

/** Largest file a change may carry, decoded. */
export const MAX_FILE_BYTES = 1024 * 1024

export interface ChangeContext {
  readonly now: Date
  readonly newId: Effect.Effect<string>
  /** Keeps a file's bytes and answers their content address. */
  readonly storeBlob: (bytes: Uint8Array) => Effect.Effect<string>
  /** Files inserted by URL, fetched before the batch (`fetchedKey`). */
  readonly fetched?: ReadonlyMap<string, FetchedFile> | undefined
  /** What `revert_page` without a `revision` goes back to: a change request's base, or the content itself; read when needed. */
  readonly revertBase: Effect.Effect<RevisionContent>
  /** The content of a revision of the same space; undefined for any other id. */
  readonly revisionContent: (revisionId: RevisionId) => Effect.Effect<RevisionContent | undefined>
  /** Where pages are parsed (`HeavyWork`); here, in this thread, when not given. */
  readonly work?: HeavyWorkRunner | undefined
}

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

/** A file's content type from its name's extension; `application/octet-stream` when it says nothing known. */
export const contentTypeOf = (name: string): string =>
  extensionTypes[name.slice(name.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream"

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

/** A file's bytes fetched by URL before the batch, so that no fetch runs while the space is locked. */
export interface FetchedFile {
  readonly bytes: Uint8Array
  readonly contentType: string
}

/** Where a fetched file is found: the change's index and the file's, as `"<change>.<file>"`. */
export const fetchedKey = (change: number, file: number) => `${change}.${file}`

/** What a batch did to one page, for GitBook's `compat=false` answer; one entry per page, in the order first touched. */
export interface PageOutcome {
  readonly kind: "created" | "updated" | "deleted"
  readonly page: PageId
  readonly ref?: string | undefined
}

/** The outcome of a batch: the new content, the delta to store, and what it did. */
export interface AppliedBatch {
  readonly content: RevisionContent
  readonly delta: ContentDelta
  readonly outcomes: ReadonlyArray<PageOutcome>
  readonly insertedFiles: ReadonlyArray<File>
}

/** The markdown of a change's document: as sent, from a JSON document, or none. */
const markdownOf = (document: DocumentInput | undefined, field: string): Effect.Effect<string | undefined, InvalidInput> => {
  if (document === undefined) return Effect.succeed(undefined)
  if (document.markdown !== undefined) return Effect.succeed(document.markdown)
  if (document.document === undefined) return Effect.succeed(undefined)
  const json = document.document
  return Effect.try({
    try: () => fromDocument(json as JSONDocument),
    catch: (error) => new InvalidInput({ field, rule: `is not a document GitBook can read: ${String(error)}` })
  })
}

/**
 * A document's fields and body. Markdown the parser would take too long on (`markdownProblem`) or
 * cannot hold (nested thousands deep) is invalid input.
 */
const readDocument = (work: HeavyWorkRunner, markdown: string, field: string) => {
  const problem = markdownProblem(markdown)
  if (problem !== undefined) return Effect.fail(new InvalidInput({ field, rule: problem }))
  return Effect.mapError(work.run(readPageTask, markdown, true), ({ rule }) => new InvalidInput({ field, rule }))
}

/** An emoji or icon as a change sets it: absent leaves it, empty or null removes it. */
const removable = (value: string | null | undefined, current: string | undefined): string | undefined =>
  value === undefined ? current : value === null || value === "" ? undefined : value

const withOptional = <K extends string>(key: K, value: string | undefined): { readonly [P in K]?: string } =>
  (value === undefined ? {} : { [key]: value }) as { readonly [P in K]?: string }

/** A batch under way: the content as the changes so far left it, and what they touched. */
interface Batch {
  readonly content: RevisionContent
  readonly context: ChangeContext
  readonly work: HeavyWorkRunner
  /** The pages as the changes so far left them, changed through `tree`. */
  readonly pages: ReadonlyMap<PageId, ContentPage>
  readonly tree: SiblingPages
  readonly files: Map<FileId, File>
  readonly touchedPages: Set<PageId>
  readonly touchedFiles: Set<FileId>
  readonly outcomes: Map<PageId, PageOutcome>
  readonly insertedFiles: Array<File>
  /** Pages whose markdown this batch wrote, with the field that wrote it: their links are resolved at the end. */
  readonly authored: Map<PageId, string>
  /** Base revisions `revert_page` reads, each loaded once. */
  readonly sources: Map<string, RevisionContent | undefined>
  readonly refs: { readonly pages: Map<string, PageId>; readonly files: Map<string, FileId> }
  readonly isExistingPath: (path: string) => boolean
  readonly isWithin: (candidate: PageId | null, ancestor: PageId) => boolean
  /** What the batch did to a page, first touch first; the kind follows whether it exists before and after. */
  readonly touched: (id: PageId, ref?: string) => void
}

const startBatch = (content: RevisionContent, context: ChangeContext): Batch => {
  const tree = makeSiblingPages(content.pages)
  const { pages } = tree
  const touchedPages = new Set<PageId>()
  const outcomes = new Map<PageId, PageOutcome>()
  // The revision's page paths, which refs must not shadow: built on the first ref only.
  let existingPaths: ReadonlySet<string> | undefined
  const isExistingPath = (path: string) => {
    existingPaths ??= new Set(pathIndex(content).pathOf.values())
    return existingPaths.has(path)
  }

  const isWithin = (candidate: PageId | null, ancestor: PageId): boolean => {
    for (let current = candidate; current !== null; current = pages.get(current)?.parentId ?? null) {
      if (current === ancestor) return true
    }
    return false
  }

  const touched = (id: PageId, ref?: string) => {
    touchedPages.add(id)
    if (!outcomes.has(id)) outcomes.set(id, { kind: "updated", page: id, ref })
  }

  return {
    content,
    context,
    work: context.work ?? { run: runHere },
    pages,
    tree,
    files: new Map(content.files),
    touchedPages,
    touchedFiles: new Set<FileId>(),
    outcomes,
    insertedFiles: [],
    authored: new Map<PageId, string>(),
    sources: new Map<string, RevisionContent | undefined>(),
    refs: { pages: new Map<string, PageId>(), files: new Map<string, FileId>() },
    isExistingPath,
    isWithin,
    touched
  }
}

/** The checks a change makes against the batch, its errors naming the change's fields (`changes.<index>.<name>`). */
const stepOf = (batch: Batch, index: number) => {
  const field = (name: string) => `changes.${index}.${name}`
  const invalid = (name: string, rule: string) => new InvalidInput({ field: field(name), rule })

  const placeUnder = (into: PageId | null, at: number | undefined, self?: PageId) =>
    Effect.gen(function*() {
      if (into !== null) {
        const parent = batch.pages.get(into)
        if (parent === undefined) return yield* invalid("into", `page ${into} is not in this revision`)
        if (parent.kind === "link") return yield* invalid("into", "a link page cannot hold pages")
        if (self !== undefined && batch.isWithin(into, self))
          return yield* invalid("into", "a page cannot move into itself or its subpages")
      }
      const count = batch.tree.countUnder(into, self)
      const where = at ?? count
      if (where > count) return yield* invalid("at", `must be at most ${count}, the number of pages there`)
      return keyBetween(batch.tree.childAt(into, where - 1, self)?.position, batch.tree.childAt(into, where, self)?.position)
    })

  const requireFreeSlug = (slug: string, parentId: PageId | null, self?: PageId) =>
    batch.tree.slugTaken(parentId, slug, self)
      ? Effect.fail(new Conflict({ reason: `${field("slug")}: ${slug} is taken by a sibling page` }))
      : Effect.void

  const claimRef = (ref: string | undefined, name: string) =>
    ref === undefined
      ? Effect.void
      : batch.refs.pages.has(ref) || batch.refs.files.has(ref)
      ? Effect.fail(invalid(name, `${ref} is already a ref in this batch`))
      : batch.isExistingPath(ref.replace(/\.md$/i, ""))
      ? Effect.fail(invalid(name, `${ref} is the path of a page already in the revision`))
      : Effect.void

  return { index, field, invalid, placeUnder, requireFreeSlug, claimRef }
}

type Step = ReturnType<typeof stepOf>

type ChangeOf<O extends AppliedChange["operation"]> = Extract<AppliedChange, { readonly operation: O }>

const insertPage = (batch: Batch, step: Step, change: ChangeOf<"insert_page">) =>
  Effect.gen(function*() {
    const { claimRef, field, invalid, placeUnder, requireFreeSlug } = step
    const kind = change.kind ?? "document"
    if (kind === "link" && change.href === undefined) return yield* invalid("href", "is required for a link page")
    yield* claimRef(change.ref, "ref")
    const markdown = yield* markdownOf(change.document, field("document.document"))
    const read = yield* readDocument(batch.work, markdown ?? "", field("document"))
    const title = read.title ?? change.title ?? "Untitled"
    const into = change.into ?? null
    const position = yield* placeUnder(into, change.at)
    const slug = change.slug ?? slugify(title)
    yield* requireFreeSlug(slug, into)
    const page: ContentPage = {
      id: "id" in change ? change.id : PageId.make(yield* batch.context.newId),
      kind,
      title,
      slug,
      parentId: into,
      position,
      markdown: kind === "document" ? read.body : "",
      hidden: read.hidden ?? change.hidden ?? false,
      noIndex: read.noIndex ?? change.noIndex ?? false,
      noRobotsIndex: read.noRobotsIndex ?? change.noRobotsIndex ?? false,
      createdAt: batch.context.now,
      updatedAt: batch.context.now,
      ...withOptional("emoji", removable(change.emoji, undefined)),
      ...withOptional("icon", read.icon ?? removable(change.icon, undefined)),
      ...withOptional("description", read.description ?? change.description),
      ...withOptional("condition", change.condition === "" ? undefined : change.condition),
      ...(kind === "link" && change.href !== undefined ? { href: change.href } : {}),
      ...(read.layout !== undefined ? { layout: read.layout } : {})
    }
    batch.tree.set(page)
    if (change.ref !== undefined) batch.refs.pages.set(change.ref, page.id)
    if (page.markdown !== "") batch.authored.set(page.id, field("document"))
    batch.touched(page.id, change.ref)
  })

const updatePage = (batch: Batch, step: Step, change: ChangeOf<"update_page">) =>
  Effect.gen(function*() {
    const { field, invalid, placeUnder, requireFreeSlug } = step
    const current = batch.pages.get(change.page)
    if (current === undefined) return yield* invalid("page", `page ${change.page} is not in this revision`)
    const markdown = yield* markdownOf(change.document, field("document.document"))
    const read = markdown === undefined ? undefined : yield* readDocument(batch.work, markdown, field("document"))
    const into = change.into === undefined ? current.parentId : change.into
    const moves = change.into !== undefined || change.at !== undefined
    const position = moves ? yield* placeUnder(into, change.at, current.id) : current.position
    const title = read?.title ?? change.title ?? current.title
    const slug = change.slug ?? current.slug
    if (slug !== current.slug || into !== current.parentId) yield* requireFreeSlug(slug, into, current.id)
    // A navigation label names the page as it was titled: a new title takes its place in the sidebar.
    const { condition: _condition, description: _description, emoji: _emoji, icon: _icon, navigationLabel, ...kept } = current
    const condition = change.condition === undefined ? current.condition : change.condition === "" ? undefined : change.condition
    const updated: ContentPage = {
      ...kept,
      title,
      slug,
      parentId: into,
      position,
      markdown: read !== undefined && current.kind === "document" ? read.body : current.markdown,
      hidden: read?.hidden ?? change.hidden ?? current.hidden,
      noIndex: read?.noIndex ?? change.noIndex ?? current.noIndex,
      noRobotsIndex: read?.noRobotsIndex ?? change.noRobotsIndex ?? current.noRobotsIndex,
      updatedAt: batch.context.now,
      ...withOptional("emoji", removable(change.emoji, current.emoji)),
      ...withOptional("icon", read?.icon ?? removable(change.icon, current.icon)),
      ...withOptional("description", read?.description ?? change.description ?? current.description),
      ...withOptional("condition", condition),
      ...withOptional("navigationLabel", title === current.title ? navigationLabel : undefined),
      ...(change.href !== undefined && current.kind === "link" ? { href: change.href } : {}),
      ...(read?.layout !== undefined ? { layout: read.layout } : {})
    }
    batch.tree.set(updated)
    if (read !== undefined && updated.markdown !== "") batch.authored.set(updated.id, field("document"))
    batch.touched(updated.id)
  })

const deletePage = (batch: Batch, step: Step, change: ChangeOf<"delete_page">) =>
  Effect.gen(function*() {
    if (!batch.pages.has(change.page)) return yield* step.invalid("page", `page ${change.page} is not in this revision`)
    // The page and everything under it, found before any is removed.
    for (const id of batch.tree.subtreeOf(change.page)) {
      batch.tree.remove(id)
      batch.authored.delete(id)
      batch.touched(id)
    }
  })

const revertPage = (batch: Batch, step: Step, change: ChangeOf<"revert_page">) =>
  Effect.gen(function*() {
    const { invalid, placeUnder, requireFreeSlug } = step
    const { context, pages, sources, tree } = batch
    if (change.block !== undefined) return yield* invalid("block", "reverting single blocks is not supported: revert the whole page")
    const key = change.revision ?? ""
    if (!sources.has(key)) {
      sources.set(key, change.revision === undefined ? yield* context.revertBase : yield* context.revisionContent(change.revision))
    }
    const source = sources.get(key)
    if (source === undefined) return yield* invalid("revision", `${change.revision} is not a revision of this space`)
    const before = source.pages.get(change.page)
    if (before === undefined) {
      return yield* invalid("page", `page ${change.page} is not in the revision it would be reverted to`)
    }
    const current = pages.get(change.page)
    // A page still here keeps its place; a deleted one comes back where it was, or last at the top.
    const parentBack = before.parentId === null || pages.has(before.parentId)
    const parentId = current !== undefined ? current.parentId : parentBack ? before.parentId : null
    // Its old key only while no sibling took it since: two pages never share a place.
    const keyFree = parentBack && !tree.positionTaken(before.parentId, before.position, before.id)
    const position = current !== undefined
      ? current.position
      : keyFree
      ? before.position
      : yield* placeUnder(parentId, undefined, before.id)
    yield* requireFreeSlug(before.slug, parentId, before.id)
    const reverted: ContentPage = { ...before, parentId, position, updatedAt: context.now }
    tree.set(reverted)
    // The text comes back as it was stored, its links already resolved.
    batch.authored.delete(reverted.id)
    batch.touched(reverted.id)
  })

const insertFiles = (batch: Batch, step: Step, change: ChangeOf<"insert_files">) =>
  Effect.gen(function*() {
    const { claimRef, invalid } = step
    const { context } = batch
    for (const [i, entry] of change.files.entries()) {
      const at = `files.${i}`
      yield* claimRef(entry.ref, `${at}.ref`)
      let bytes: Uint8Array
      let sentType: string | undefined
      if (entry.base64 !== undefined) {
        if (entry.contentType === undefined) return yield* invalid(`${at}.contentType`, "is required with base64")
        const decoded = decodeBase64(entry.base64)
        if (decoded === undefined) return yield* invalid(`${at}.base64`, "must be base64")
        bytes = decoded
      } else {
        const fetched = context.fetched?.get(fetchedKey(step.index, i))
        if (fetched === undefined) return yield* invalid(`${at}.url`, "was not fetched")
        bytes = fetched.bytes
        sentType = fetched.contentType === "" ? undefined : fetched.contentType
      }
      if (bytes.length > MAX_FILE_BYTES) {
        return yield* invalid(
          `${at}.${entry.base64 !== undefined ? "base64" : "url"}`,
          `must be at most ${MAX_FILE_BYTES} bytes, got ${bytes.length}`
        )
      }
      const dimensions = imageDimensions(bytes)
      const file: File = {
        id: FileId.make(yield* context.newId),
        name: entry.name,
        contentType: entry.contentType ?? sentType ?? contentTypeOf(entry.name),
        size: bytes.length,
        blobKey: yield* context.storeBlob(bytes),
        createdAt: context.now,
        ...(dimensions !== undefined ? { dimensions } : {})
      }
      batch.files.set(file.id, file)
      batch.touchedFiles.add(file.id)
      batch.insertedFiles.push(file)
      if (entry.ref !== undefined) batch.refs.files.set(entry.ref, file.id)
    }
  })

/** One change applied to the batch, by its kind. */
const applyChange = (batch: Batch, index: number, change: AppliedChange): Effect.Effect<void, InvalidInput | Conflict> => {
  const step = stepOf(batch, index)
  switch (change.operation) {
    case "insert_page":
      return insertPage(batch, step, change)
    case "update_page":
      return updatePage(batch, step, change)
    case "delete_page":
      return deletePage(batch, step, change)
    case "revert_page":
      return revertPage(batch, step, change)
    case "insert_files":
      return insertFiles(batch, step, change)
  }
}

/** Links of the markdown the batch wrote, resolved against the tree it produced. */
const resolveAuthoredLinks = (batch: Batch) =>
  Effect.gen(function*() {
    const { authored, files, pages, refs, tree, work } = batch
    if (authored.size === 0) return
    const after: RevisionContent = { pages, files }
    const paths = pathIndex(after)
    for (const [id, documentField] of authored) {
      const page = pages.get(id)
      if (page === undefined) continue
      // The parser's own limits (a stack overflow on markdown nested thousands deep, its time) are invalid input.
      const markdown = yield* Effect.flatMap(
        work.run(linksTask, page.markdown),
        (links) => resolveLinksWith(work, page.markdown, links, after, paths, id, refs)
      ).pipe(Effect.mapError(({ rule }) => new InvalidInput({ field: documentField, rule })))
      if (markdown !== page.markdown) tree.set({ ...page, markdown })
    }
  })

/** The batch's outcome: the content it left, the delta to store, and what it did to each page. */
const finish = (batch: Batch): AppliedBatch => {
  const { content, files, insertedFiles, outcomes, pages, touchedFiles, touchedPages } = batch
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
  // Whether a page was there before and is there after says what the batch did to it; one that
  // came and went in the same batch never was.
  const reported = Array.from(outcomes.values()).flatMap((o): Array<PageOutcome> => {
    const was = content.pages.has(o.page)
    const is = pages.has(o.page)
    if (!was && !is) return []
    return [{ ...o, kind: !was ? "created" : !is ? "deleted" : "updated" }]
  })
  return { content: { pages, files }, delta, outcomes: reported, insertedFiles }
}

/**
 * Applies a batch of changes in order to a revision's content. Any invalid change rejects the
 * whole batch; nothing is written here, the caller stores the delta as a new revision. Links in
 * the markdown the batch writes are resolved last, against the tree the batch produces.
 */
export const applyChanges = (
  content: RevisionContent,
  changes: ReadonlyArray<AppliedChange>,
  context: ChangeContext
): Effect.Effect<AppliedBatch, InvalidInput | Conflict> =>
  Effect.gen(function*() {
    const batch = startBatch(content, context)
    yield* forEachInTurns(changes, (change, index) => applyChange(batch, index, change))
    yield* resolveAuthoredLinks(batch)
    return finish(batch)
  })

export interface PageNode {
  readonly page: ContentPage
  readonly path: string
  readonly pages: ReadonlyArray<PageNode>
}

/** The pages of a revision by their parent's id (null for the top level). */
const pagesByParent = (content: RevisionContent): ReadonlyMap<PageId | null, ReadonlyArray<ContentPage>> => {
  const byParent = new Map<PageId | null, Array<ContentPage>>()
  for (const page of content.pages.values()) {
    const list = byParent.get(page.parentId) ?? []
    list.push(page)
    byParent.set(page.parentId, list)
  }
  return byParent
}

/** The nodes below `parentId`, siblings in order, their paths under `prefix`. */
const subtree = (
  byParent: ReadonlyMap<PageId | null, ReadonlyArray<ContentPage>>,
  parentId: PageId | null,
  prefix: string
): ReadonlyArray<PageNode> =>
  [...(byParent.get(parentId) ?? [])].sort(byPosition).map((page) => {
    const path = prefix === "" ? page.slug : `${prefix}/${page.slug}`
    return { page, path, pages: subtree(byParent, page.id, path) }
  })

/** The page tree of a revision, siblings in order, each page with its path (slugs joined by "/"). */
export const pageTree = (content: RevisionContent): ReadonlyArray<PageNode> => subtree(pagesByParent(content), null, "")

/**
 * One page of a revision as a node: its path and the tree of the pages below it. `content` needs
 * only the page's branch (see `branchOf`), not the whole revision.
 */
export const nodeOf = (content: RevisionContent, pageId: PageId): PageNode | undefined => {
  const page = content.pages.get(pageId)
  if (page === undefined) return undefined
  const path = pathOf(content, page)
  return { page, path, pages: subtree(pagesByParent(content), page.id, path) }
}

/**
 * A page's branch: the page, the pages above it up to the top level and every page below it, all
 * that its node depends on; empty when the revision does not hold the page. Storage answers the
 * same for a read of one page that does not load the whole revision.
 */
export const branchOf = (content: RevisionContent, pageId: PageId): ReadonlyArray<ContentPage> => {
  const page = content.pages.get(pageId)
  if (page === undefined) return []
  const above: Array<ContentPage> = []
  for (let parent = nextAbove(content, page); parent !== undefined; parent = nextAbove(content, parent)) {
    above.push(parent)
  }
  const byParent = pagesByParent(content)
  const below: Array<ContentPage> = []
  const visit = (id: PageId) => {
    for (const child of byParent.get(id) ?? []) {
      below.push(child)
      visit(child.id)
    }
  }
  visit(page.id)
  return [...above, page, ...below]
}

const nextAbove = (content: RevisionContent, page: ContentPage): ContentPage | undefined =>
  page.parentId === null ? undefined : content.pages.get(page.parentId)

/** A page's path in a revision. */
export const pathOf = (content: RevisionContent, page: ContentPage): string => {
  const slugs: Array<string> = []
  for (let current: ContentPage | undefined = page; current !== undefined; current = nextAbove(content, current)) {
    slugs.unshift(current.slug)
  }
  return slugs.join("/")
}
