// A revision as a Git Sync file tree and back (conventions.md "Git Sync format", conventions-2.md §8
// "Format additions"): pure functions, so that the mapping is tested without Git. An import reads its pages through
// `HeavyWork`, so that a repository of thousands of pages gives the event loop turns as it is read.
import { Effect } from "effect"
import {
  defaultGitbookConfig,
  type GitbookConfig,
  type PageFields,
  patchPage,
  patchSummary,
  readGitbookConfig,
  readSummary,
  slugify,
  type SummaryEntry,
  type SummaryItem,
  writePage,
  writeSummary
} from "@octavo/markdown"
import { contentTypeOf, imageDimensions } from "../content/Changes.js"
import { type ContentPage, type File, linkedPage, pageLink, type RevisionContent } from "../content/Page.js"
import { byPosition } from "../content/Resolve.js"
import {
  heavyTask,
  HeavyWork,
  keepUnchangedBlocksTask,
  linksOfPagesTask,
  readPagesTask,
  rewriteUrls,
  runBatched,
  type Unreadable
} from "../shared/HeavyWork.js"
import { FileId, PageId } from "../shared/Ids.js"
import { keyBetween } from "../shared/Position.js"
import { giveTurn } from "../shared/Turns.js"

/** Files by path relative to the repository root. */
export type RepoFiles = ReadonlyMap<string, Uint8Array>

const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8")

export const ASSETS = ".gitbook/assets"
export const INCLUDES = ".gitbook/includes"

// Paths ----------------------------------------------------------------------------------------

/** `a/b` + `c.md` → `a/b/c.md`; empty parts are left out. */
export const joinPath = (...parts: ReadonlyArray<string>): string => parts.filter((p) => p !== "").join("/")

const dirOf = (path: string): string => path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ""

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1)

/** Resolves `target` against the directory `dir`; undefined when it climbs above the root. */
export const resolvePath = (dir: string, target: string): string | undefined => {
  const parts = dir === "" ? [] : dir.split("/")
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") {
      if (parts.length === 0) return undefined
      parts.pop()
    } else parts.push(segment)
  }
  return parts.join("/")
}

/** The relative path from the directory `fromDir` to `to`. */
export const relativePath = (fromDir: string, to: string): string => {
  const from = fromDir === "" ? [] : fromDir.split("/")
  const target = to.split("/")
  let common = 0
  while (common < from.length && common < target.length - 1 && from[common] === target[common]) common++
  return [...new Array<string>(from.length - common).fill(".."), ...target.slice(common)].join("/")
}

/** The content root of a repository: the project directory, then `.gitbook.yaml`'s `root`. */
export const contentRootOf = (projectDirectory: string, config: GitbookConfig): string => joinPath(projectDirectory, config.root)

export const configOf = (files: RepoFiles, projectDirectory: string): GitbookConfig => {
  const bytes = files.get(joinPath(projectDirectory, ".gitbook.yaml"))
  return bytes === undefined ? defaultGitbookConfig : readGitbookConfig(decoder.decode(bytes))
}

const hasScheme = /^[a-z][a-z0-9+.-]*:/i

const decodeUri = (text: string): string => {
  try {
    return decodeURI(text)
  } catch {
    return text
  }
}

/** A path-like link target split from its anchor; undefined for URLs, absolute paths and anchors. */
const relativeTarget = (url: string): { readonly path: string; readonly anchor: string | undefined } | undefined => {
  if (url === "" || hasScheme.test(url) || url.startsWith("/") || url.startsWith("#")) return undefined
  const hash = url.indexOf("#")
  const path = decodeUri((hash < 0 ? url : url.slice(0, hash)).replace(/\?.*$/, ""))
  return { path, anchor: hash < 0 ? undefined : url.slice(hash + 1) }
}

/** Whether a path (relative to the content root) is a page's markdown file. */
const isPageFile = (path: string, config: GitbookConfig) =>
  path.toLowerCase().endsWith(".md") && !path.startsWith(".gitbook/") && path !== config.summary

/**
 * The files an export replaces, relative to the repository root: in the content root, the pages
 * (markdown files), the summary, assets and includes. Every other file is kept.
 */
export const isReplaced = (repoPath: string, contentRoot: string, config: GitbookConfig): boolean => {
  const prefix = contentRoot === "" ? "" : `${contentRoot}/`
  if (!repoPath.startsWith(prefix)) return false
  const path = repoPath.slice(prefix.length)
  return path.startsWith(`${ASSETS}/`) || path.startsWith(`${INCLUDES}/`) || path === config.summary || isPageFile(path, config)
}

/** Whether an import reads a file (relative to the repository root). */
export const isRead = (repoPath: string, projectDirectory: string, contentRoot: string, config: GitbookConfig): boolean =>
  repoPath === joinPath(projectDirectory, ".gitbook.yaml") || isReplaced(repoPath, contentRoot, config)

// Import ---------------------------------------------------------------------------------------

/** What an import needs besides the files: the content it replaces, and how to name new things. */
export interface ImportContext {
  readonly projectDirectory: string
  /** The revision the import replaces: pages and files keep their ids, matched by `git.path`. */
  readonly base: RevisionContent
  readonly newId: () => string
  /** The content address of a file's bytes, by repository path. */
  readonly blobKeys: ReadonlyMap<string, string>
  /** The Git blob id of a file, by repository path. */
  readonly oids: ReadonlyMap<string, string>
  readonly now: Date
  /** Told as the page files are read: how many, of how many. */
  readonly progress?: (done: number, total: number) => Effect.Effect<void>
}

/** A page as the tree of a repository gives it, before ids. */
interface TreePage {
  readonly kind: ContentPage["kind"]
  readonly title: string
  /** The file, relative to the content root; undefined for groups, links and folders without a README. */
  readonly file: string | undefined
  /** A name for the slug when the page has no file (a folder's). */
  readonly name?: string
  readonly href?: string
  /** SUMMARY.md's navigation label for it. */
  readonly label?: string | undefined
  /** For a link to a page of the space: the file it points at, and the anchor in it. */
  readonly into?: { readonly file: string; readonly anchor: string | undefined }
  readonly pages: Array<TreePage>
}

const titleFromName = (name: string) => name.replace(/\.md$/i, "").replace(/[-_]+/g, " ").trim() || "Untitled"

/** SUMMARY.md's entries: thousands of them in a large repository. */
export const readSummaryTask = heavyTask("gitsync.readSummary", (text: string): ReadonlyArray<SummaryEntry> => readSummary(text))

/** SUMMARY.md written, or patched onto the branch's own (`patchSummary`): a parse of thousands of entries. */
export const writeSummaryTask = heavyTask(
  "gitsync.writeSummary",
  (previous: string | null, entries: ReadonlyArray<SummaryEntry>): string =>
    previous === null ? writeSummary(entries) : patchSummary(previous, entries)
)

/**
 * The tree from SUMMARY.md's entries. Each file is one page, as in GitBook: of the entries that name the same file,
 * the first without an anchor (else the first) is its page, and the others are links to it (`[Buttons](inline.md#buttons)`).
 */
const treeFromSummary = (entries: ReadonlyArray<SummaryEntry>, config: GitbookConfig): Array<TreePage> => {
  const fileOf = (item: SummaryItem) => {
    const target = item.target === undefined ? undefined : relativeTarget(item.target)
    const file = target === undefined ? undefined : resolvePath(dirOf(config.summary), target.path)
    return { target, file: file === "" ? undefined : file }
  }
  // The entry that is each file's page.
  const pageItems = new Map<string, SummaryItem>()
  const choose = (items: ReadonlyArray<SummaryItem>) =>
    items.forEach((item) => {
      const { file, target } = fileOf(item)
      const chosen = file === undefined ? undefined : pageItems.get(file)
      if (
        file !== undefined && item.kept !== true &&
        (chosen === undefined || (target?.anchor === undefined && fileOf(chosen).target?.anchor !== undefined))
      ) {
        pageItems.set(file, item)
      }
      choose(item.items)
    })
  entries.forEach((entry) => choose(entry.kind === "group" ? entry.items : [entry]))
  const fromItem = (item: SummaryItem): TreePage => {
    const { target, file } = fileOf(item)
    const isLink = item.target !== undefined && target === undefined && hasScheme.test(item.target)
    if (isLink) return { kind: "link", title: item.title || item.target || "Link", file: undefined, href: item.target, pages: [] }
    if (file !== undefined && pageItems.get(file) !== item) {
      return { kind: "link", title: item.title || "Link", file: undefined, into: { file, anchor: target?.anchor }, pages: [] }
    }
    return { kind: "document", title: item.title, file, label: item.label, pages: pagesOf(item.items) }
  }
  // A kept item (a fenced `builtin:openapi` entry) is no page: the export keeps it in SUMMARY.md as written.
  const pagesOf = (items: ReadonlyArray<SummaryItem>) => items.filter((item) => item.kept !== true).map(fromItem)
  return entries.flatMap((entry) =>
    entry.kind === "group"
      ? [{ kind: "group" as const, title: entry.title || "Group", file: undefined, pages: pagesOf(entry.items) }]
      : entry.kept === true
      ? []
      : [fromItem(entry)]
  )
}

/** The tree from the folders, without SUMMARY.md: README first, then the rest by name; a folder is a page. */
const treeFromFolders = (paths: ReadonlyArray<string>, config: GitbookConfig): Array<TreePage> => {
  const build = (dir: string): Array<TreePage> => {
    const prefix = dir === "" ? "" : `${dir}/`
    const here = paths.filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/"))
    const folders = Array.from(
      new Set(
        paths.filter((p) => p.startsWith(prefix) && p.slice(prefix.length).includes("/"))
          .map((p) => p.slice(prefix.length).split("/")[0] as string)
      )
    )
    const readme = here.find((p) => baseName(p) === baseName(config.readme))
    const entries: Array<{ readonly name: string; readonly page: TreePage }> = []
    for (const path of here) {
      if (path === readme && dir !== "") continue
      entries.push({ name: baseName(path), page: { kind: "document", title: "", file: path, pages: [] } })
    }
    for (const folder of folders) {
      const folderDir = `${prefix}${folder}`
      const folderReadme = paths.find((p) => p === `${folderDir}/${baseName(config.readme)}`)
      entries.push({
        name: folder,
        page: { kind: "document", title: "", file: folderReadme, name: folder, pages: build(folderDir) }
      })
    }
    const first = (e: { readonly page: TreePage }) => e.page.file === readme && dir === "" ? 0 : 1
    entries.sort((a, b) => first(a) - first(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    return entries.map((e) => e.page)
  }
  return build("")
}

const layoutOf = (fields: PageFields): ContentPage["layout"] => fields.layout === undefined ? undefined : { ...fields.layout }

/**
 * The content a repository's files describe (conventions.md "Git Sync format"), on `context.base`:
 * pages and files found at a `git.path` the base has keep their ids, and what did not change is
 * kept as it was (its `updatedAt` too).
 */
export const importFiles = (files: RepoFiles, context: ImportContext): Effect.Effect<RevisionContent, Unreadable> =>
  Effect.gen(function*() {
    const heavy = yield* HeavyWork
    const config = configOf(files, context.projectDirectory)
    const root = contentRootOf(context.projectDirectory, config)
    const prefix = root === "" ? "" : `${root}/`
    const local = new Map<string, Uint8Array>()
    for (const [path, bytes] of files) if (path.startsWith(prefix)) local.set(path.slice(prefix.length), bytes)
    const repoPath = (path: string) => `${prefix}${path}`

    const basePages = new Map<string, ContentPage>()
    for (const page of context.base.pages.values()) if (page.git !== undefined) basePages.set(page.git.path, page)
    const baseFiles = new Map<string, File>()
    for (const file of context.base.files.values()) if (file.git !== undefined) baseFiles.set(file.git.path, file)

    // Files: assets and includes.
    const newFiles = new Map<FileId, File>()
    const fileByPath = new Map<string, FileId>()
    for (const [path, bytes] of local) {
      if (!path.startsWith(`${ASSETS}/`) && !path.startsWith(`${INCLUDES}/`)) continue
      const git = { oid: context.oids.get(repoPath(path)) ?? "", path: repoPath(path) }
      const name = baseName(path)
      const blobKey = context.blobKeys.get(repoPath(path)) ?? ""
      const previous = baseFiles.get(git.path)
      const dimensions = imageDimensions(bytes)
      const candidate: File = {
        id: previous?.id ?? FileId.make(context.newId()),
        name,
        contentType: contentTypeOf(name),
        size: bytes.length,
        ...(dimensions !== undefined ? { dimensions } : {}),
        blobKey,
        git,
        createdAt: previous?.createdAt ?? context.now
      }
      const file = previous !== undefined && unchangedFile(previous, candidate) ? previous : candidate
      newFiles.set(file.id, file)
      fileByPath.set(path, file.id)
    }

    // The page tree.
    const summaryBytes = local.get(config.summary)
    const pagePaths = Array.from(local.keys()).filter((p) => isPageFile(p, config)).sort()
    const tree = summaryBytes !== undefined
      ? treeFromSummary(yield* heavy.run(readSummaryTask, decoder.decode(summaryBytes)), config)
      : treeFromFolders(pagePaths, config)

    // Ids first, so that links between pages resolve whatever their order.
    const idOf = new Map<TreePage, PageId>()
    const pageByFile = new Map<string, PageId>()
    const baseUsed = new Set<PageId>()
    const assign = (pages: ReadonlyArray<TreePage>, parent: TreePage | undefined) => {
      for (const page of pages) {
        let previous = page.file !== undefined ? basePages.get(repoPath(page.file)) : undefined
        if (previous === undefined && page.file === undefined) {
          // Groups, links and folders match a page of the same kind and title under the same parent.
          previous = Array.from(context.base.pages.values()).find((p) =>
            p.kind === page.kind && p.title === page.title && p.git === undefined && !baseUsed.has(p.id) &&
            p.parentId === (parent === undefined ? null : idOf.get(parent) ?? null)
          )
        }
        const id = previous !== undefined && !baseUsed.has(previous.id) ? previous.id : PageId.make(context.newId())
        baseUsed.add(id)
        idOf.set(page, id)
        if (page.file !== undefined && !pageByFile.has(page.file)) pageByFile.set(page.file, id)
        assign(page.pages, page)
      }
    }
    assign(tree, undefined)

    // Every page file the tree names, read in batches (on the worker pool in the server).
    const named = new Set<string>()
    const collect = (nodes: ReadonlyArray<TreePage>): void =>
      nodes.forEach((node) => {
        if (node.file !== undefined && local.has(node.file)) named.add(node.file)
        collect(node.pages)
      })
    collect(tree)
    const readFiles = Array.from(named)
    const reads = new Map(
      (yield* runBatched(readPagesTask, readFiles.map((file) => decoder.decode(local.get(file))), context.progress)).map((read, i) =>
        [readFiles[i] as string, read] as const
      )
    )

    const pages = new Map<PageId, ContentPage>()
    const place = (siblings: ReadonlyArray<TreePage>, parentId: PageId | null): Effect.Effect<void, Unreadable> =>
      Effect.gen(function*() {
        const taken = new Set<string>()
        const ids = siblings.map((s) => idOf.get(s) as PageId)
        const baseOrder = Array.from(context.base.pages.values()).filter((p) => p.parentId === parentId).sort(byPosition)
        const keepPositions = baseOrder.length === ids.length && baseOrder.every((p, i) => p.id === ids[i])
        let position: string | undefined
        for (const [index, node] of siblings.entries()) {
          const id = ids[index] as PageId
          const previous = context.base.pages.get(id)
          position = keepPositions && previous !== undefined ? previous.position : keyBetween(position, undefined)
          const text = node.file === undefined ? undefined : local.get(node.file)
          const { page: read, links } = (node.file === undefined ? undefined : reads.get(node.file)) ??
            { page: { body: "" }, links: [] }
          const fields: PageFields = read
          const dir = node.file === undefined ? "" : dirOf(node.file)
          const decide = (url: string): string | undefined => {
            const target = relativeTarget(url)
            if (target === undefined) return undefined
            const path = resolvePath(dir, target.path)
            if (path === undefined) return undefined
            const page = pageByFile.get(path)
            if (page !== undefined) return `/pages/${page}${target.anchor !== undefined ? `#${target.anchor}` : ""}`
            const file = fileByPath.get(path)
            return file !== undefined ? `/files/${file}` : undefined
          }
          const body = yield* rewriteUrls(read.body, links, decide)
          const title = (fields.title ?? "").trim() || node.title.trim() ||
            titleFromName(
              node.name ?? (node.file === undefined
                ? ""
                : baseName(node.file) === baseName(config.readme) && dirOf(node.file) !== ""
                ? baseName(dirOf(node.file))
                : baseName(node.file))
            )
          const slugBase = slugFor(node, title, config)
          let slug = slugBase
          for (let n = 2; taken.has(slug); n++) slug = `${slugBase.slice(0, 95)}-${n}`
          taken.add(slug)
          const coverPath = fields.cover === undefined ? undefined : resolvePath(dir, decodeUri(fields.cover))
          const coverFile = coverPath === undefined ? undefined : fileByPath.get(coverPath)
          const layout = layoutOf(fields)
          const candidate: ContentPage = {
            id,
            kind: node.kind,
            title: title.slice(0, 255),
            slug,
            parentId,
            position,
            markdown: node.kind === "document" ? body : "",
            ...(node.href !== undefined ? { href: node.href } : {}),
            ...(node.label !== undefined ? { navigationLabel: node.label.slice(0, 255) } : {}),
            ...(node.into !== undefined ? { href: pageLink(pageByFile.get(node.into.file) ?? "", node.into.anchor) } : {}),
            ...(fields.description !== undefined ? { description: fields.description } : {}),
            ...(fields.icon !== undefined ? { icon: fields.icon } : {}),
            hidden: fields.hidden ?? false,
            noIndex: fields.noIndex ?? false,
            noRobotsIndex: fields.noRobotsIndex ?? false,
            ...(layout !== undefined ? { layout } : {}),
            ...(coverFile !== undefined
              ? { cover: { file: coverFile, ...(fields.coverY !== undefined ? { yPos: fields.coverY } : {}) } }
              : {}),
            ...(node.file !== undefined && text !== undefined
              ? { git: { oid: context.oids.get(repoPath(node.file)) ?? "", path: repoPath(node.file) } }
              : {}),
            createdAt: previous?.createdAt ?? context.now,
            updatedAt: context.now
          }
          const page = previous !== undefined && unchangedPage(previous, candidate) ? previous : candidate
          pages.set(id, page)
          yield* place(node.pages, id)
        }
      })
    yield* place(tree, null)
    return { pages, files: newFiles }
  })

const slugFor = (node: TreePage, title: string, config: GitbookConfig): string => {
  if (node.file === undefined) return slugify(node.name ?? title)
  const name = baseName(node.file)
  if (name === baseName(config.readme)) {
    const folder = dirOf(node.file)
    return folder === "" ? slugify(title) : slugify(baseName(folder))
  }
  return slugify(name.replace(/\.md$/i, ""))
}

const json = (value: unknown) => JSON.stringify(value, (_, v: unknown) => v instanceof Date ? v.getTime() : v)

/** Two versions of a page that hold the same thing (the time of the last change aside). */
export const unchangedPage = (a: ContentPage, b: ContentPage): boolean =>
  json({ ...a, updatedAt: 0, createdAt: 0 }) === json({ ...b, updatedAt: 0, createdAt: 0 })

export const unchangedFile = (a: File, b: File): boolean => json({ ...a, createdAt: 0 }) === json({ ...b, createdAt: 0 })

/** Whether two revisions hold the same pages (in the same order) and files. */
export const sameContent = (a: RevisionContent, b: RevisionContent): boolean => {
  if (a.pages.size !== b.pages.size || a.files.size !== b.files.size) return false
  for (const [id, page] of a.pages) {
    const other = b.pages.get(id)
    if (other === undefined || !unchangedPage({ ...page, position: "" }, { ...other, position: "" })) return false
  }
  for (const [id, file] of a.files) {
    const other = b.files.get(id)
    if (other === undefined || !unchangedFile(file, other)) return false
  }
  const order = (content: RevisionContent) =>
    Array.from(content.pages.values()).sort(byPosition).map((p) => `${p.parentId ?? ""}/${p.id}`).join(",")
  return order(a) === order(b)
}

// Export ---------------------------------------------------------------------------------------

/** The branch an export writes onto, as it is: what an export keeps of it, and what it may replace. */
export interface Branch {
  /** Every path of the branch, from the repository root. */
  readonly paths: ReadonlySet<string>
  /**
   * The paths Octavo owns there: the files it imported or exported as pages, assets, includes and SUMMARY.md. An
   * export deletes those its content no longer holds; it never deletes, nor writes over, a path it does not own.
   */
  readonly owned: ReadonlySet<string>
  /** The text of the owned page files and of SUMMARY.md, by repository path: an export patches them. */
  readonly texts: RepoFiles
}

/** What an export writes besides the revision: where, the bytes of its files, and the branch it writes onto. */
export interface ExportContext {
  readonly projectDirectory: string
  /** The repository's `.gitbook.yaml`, when it has one (it is kept as it is). */
  readonly config: GitbookConfig
  readonly bytesOf: (file: File) => Uint8Array
  /** The branch as it is; none for a new branch. */
  readonly branch?: Branch | undefined
}

/** The page file paths of a branch that Octavo would read: what an export must read to patch them. */
export const pageFilesOf = (paths: Iterable<string>, contentRoot: string, config: GitbookConfig): Array<string> => {
  const prefix = contentRoot === "" ? "" : `${contentRoot}/`
  return Array.from(paths).filter((path) => path.startsWith(prefix) && isPageFile(path.slice(prefix.length), config))
}

/** What a link or a cover written in a file points at, from the file's folder: a path relative to the content root. */
const targetOf = (dir: string, url: string): string | undefined => {
  const target = relativeTarget(url)
  if (target === undefined) return undefined
  const path = resolvePath(dir, target.path)
  return path === undefined ? undefined : `${path}${target.anchor !== undefined ? `#${target.anchor}` : ""}`
}

/**
 * The files \`content\` writes, by repository path: pages, SUMMARY.md, assets and includes (UTF-8, LF). Onto a branch
 * that holds them already, a page file and SUMMARY.md are patched rather than written anew (\`patchPage\`,
 * \`patchSummary\`): what the content did not change keeps its text, spelling and unknown front matter, so that an
 * export of an untouched import writes the same bytes. A path the branch holds that Octavo does not own is never
 * taken. The pages' links are read in batches through \`HeavyWork\`, so that thousands of pages give the event loop
 * turns as they are written.
 */
export const exportFiles = (content: RevisionContent, context: ExportContext): Effect.Effect<Map<string, Uint8Array>, Unreadable> =>
  Effect.gen(function*() {
    const { config, branch } = context
    const root = contentRootOf(context.projectDirectory, config)
    const prefix = root === "" ? "" : `${root}/`
    const out = new Map<string, Uint8Array>()
    const taken = new Set<string>()
    // Paths of the branch that are not Octavo's, relative to the content root: never written over.
    for (const path of branch?.paths ?? []) {
      if (path.startsWith(prefix) && !branch?.owned.has(path)) taken.add(path.slice(prefix.length).toLowerCase())
    }
    const claim = (path: string) => {
      taken.add(path.toLowerCase())
      return path
    }
    const free = (path: string) => !taken.has(path.toLowerCase())
    const unique = (path: string, suffix: (base: string, ext: string, n: number) => string) => {
      if (free(path)) return claim(path)
      const dot = baseName(path).lastIndexOf(".")
      const base = dot <= 0 ? path : path.slice(0, path.length - baseName(path).length + dot)
      const ext = dot <= 0 ? "" : baseName(path).slice(dot)
      for (let n = 1;; n++) {
        const candidate = suffix(base, ext, n)
        if (free(candidate)) return claim(candidate)
      }
    }
    const textOf = (path: string): string | undefined => {
      const bytes = branch?.texts.get(`${prefix}${path}`)
      return bytes === undefined ? undefined : decoder.decode(bytes)
    }

    // Files: assets and includes, at their own path when it is still theirs, else by name.
    const filePath = new Map<FileId, string>()
    const files = Array.from(content.files.values()).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
    for (const file of files) {
      const own = file.git?.path.startsWith(prefix) === true ? file.git.path.slice(prefix.length) : undefined
      const folder = own?.startsWith(`${INCLUDES}/`) === true ? INCLUDES : ASSETS
      const wanted = own !== undefined && dirOf(own) === folder && baseName(own) === file.name ? own : `${folder}/${file.name}`
      const path = unique(wanted, (base, ext, n) => `${base} (${n})${ext}`)
      filePath.set(file.id, path)
      out.set(`${prefix}${path}`, context.bytesOf(file))
    }

    // Page paths: a page's own \`git.path\` when it is still free, else GitBook's layout.
    const byParent = new Map<PageId | null, Array<ContentPage>>()
    for (const page of content.pages.values()) {
      const list = byParent.get(page.parentId) ?? []
      list.push(page)
      byParent.set(page.parentId, list)
    }
    for (const list of byParent.values()) list.sort(byPosition)
    const childrenOf = (id: PageId | null) => byParent.get(id) ?? []
    const pagePath = new Map<PageId, string>()
    const ownPath = (page: ContentPage): string | undefined => {
      const own = page.git?.path.startsWith(prefix) === true ? page.git.path.slice(prefix.length) : undefined
      return own !== undefined && isPageFile(own, config) ? own : undefined
    }
    // Own paths first, so that a page placed before another never takes the other's file.
    for (const page of content.pages.values()) {
      const own = page.kind === "document" ? ownPath(page) : undefined
      if (own !== undefined && free(own)) pagePath.set(page.id, claim(own))
    }
    const layout = (pages: ReadonlyArray<ContentPage>, dir: string, top: boolean) => {
      pages.forEach((page, index) => {
        const children = childrenOf(page.id)
        if (page.kind === "group") {
          layout(children, joinPath(dir, page.slug), false)
          return
        }
        if (page.kind === "link") return
        let path = pagePath.get(page.id)
        if (path !== undefined) {
          // Its own path, claimed above.
        } else if (top && index === 0) {
          path = unique(config.readme, (base, ext, n) => `${base}-${n}${ext}`)
        } else if (children.length > 0) {
          path = unique(joinPath(dir, page.slug, "README.md"), (_, ext, n) => joinPath(dir, `${page.slug}-${n}`, `README${ext}`))
        } else {
          path = unique(joinPath(dir, `${page.slug}.md`), (base, ext, n) => `${base}-${n}${ext}`)
        }
        pagePath.set(page.id, path)
        const childDir = baseName(path) === "README.md" && path !== config.readme
          ? dirOf(path)
          : path === config.readme
          ? joinPath(dir, page.slug)
          : path.replace(/\.md$/i, "")
        layout(children, childDir, false)
      })
    }
    layout(childrenOf(null), "", true)

    // What a link of the content points at, as a path relative to the content root (with its anchor).
    const pageOfPath = new Map(Array.from(pagePath, ([id, path]) => [path, id] as const))
    const fileOfPath = new Map(Array.from(filePath, ([id, path]) => [path, id] as const))
    const contentUrl = (target: string): string | undefined => {
      const hash = target.indexOf("#")
      const path = hash < 0 ? target : target.slice(0, hash)
      const page = pageOfPath.get(path)
      if (page !== undefined) return `/pages/${page}${hash < 0 ? "" : target.slice(hash)}`
      const file = fileOfPath.get(path)
      return file !== undefined && hash < 0 ? `/files/${file}` : undefined
    }

    // The previous summary's entries, by the path they point at: their link texts and spelling are kept.
    const summaryText = textOf(config.summary)
    const previousSummary = summaryText === undefined ? [] : yield* (yield* HeavyWork).run(readSummaryTask, summaryText)
    const previousItems = new Map<string, SummaryItem>()
    const visitItems = (items: ReadonlyArray<SummaryItem>) =>
      items.forEach((item) => {
        const target = item.target === undefined ? undefined : targetOf(dirOf(config.summary), item.target)
        if (target !== undefined && !previousItems.has(target)) previousItems.set(target, item)
        visitItems(item.items)
      })
    previousSummary.forEach((entry) => visitItems(entry.kind === "group" ? entry.items : [entry]))

    // Page files.
    const written = Array.from(content.pages.values()).filter((page) => pagePath.has(page.id))
    const previousTexts = written.map((page) => textOf(pagePath.get(page.id) ?? ""))
    const previousReads = yield* runBatched(
      readPagesTask,
      previousTexts.flatMap((text) => text === undefined ? [] : [text])
    )
    const linksOfPages = yield* runBatched(linksOfPagesTask, written.map((page) => page.markdown))
    const titles = new Map<PageId, { readonly previous: string | undefined; readonly kept: boolean }>()
    let nextRead = 0
    for (const [index, page] of written.entries()) {
      yield* giveTurn
      const path = pagePath.get(page.id) ?? ""
      const dir = dirOf(path)
      const previousText = previousTexts[index]
      const previous = previousText === undefined ? undefined : previousReads[nextRead++]
      // The spelling of each link the file held, by what it points at, in document order.
      const spellings = new Map<string, Array<string>>()
      for (const link of previous?.links ?? []) {
        const target = targetOf(dir, link.url)
        const url = target === undefined ? undefined : contentUrl(target)
        if (url === undefined) continue
        const list = spellings.get(url) ?? []
        list.push(link.url)
        spellings.set(url, list)
      }
      const decide = (url: string): string | undefined => {
        const kept = spellings.get(url)?.shift()
        if (kept !== undefined) return kept
        const page = /^\/pages\/([^/#?]+)(#.*)?$/.exec(url)
        if (page !== null) {
          const target = pagePath.get(PageId.make(page[1] as string))
          return target === undefined ? undefined : `${relativePath(dir, target)}${page[2] ?? ""}`
        }
        const file = /^\/files\/([^/#?]+)$/.exec(url)
        if (file !== null) {
          const target = filePath.get(FileId.make(file[1] as string))
          return target === undefined ? undefined : relativePath(dir, target)
        }
        return undefined
      }
      const body = yield* rewriteUrls(page.markdown, linksOfPages[index] ?? [], decide)
      const cover = page.cover === undefined ? undefined : filePath.get(FileId.make(page.cover.file))
      const fields: PageFields = {
        title: page.title,
        ...(page.description !== undefined ? { description: page.description } : {}),
        ...(page.icon !== undefined ? { icon: page.icon } : {}),
        ...(page.hidden ? { hidden: true } : {}),
        ...(cover !== undefined ? { cover: relativePath(dir, cover) } : {}),
        ...(cover !== undefined && page.cover?.yPos !== undefined ? { coverY: page.cover.yPos } : {}),
        ...(page.layout !== undefined ? { layout: page.layout } : {}),
        ...(page.noIndex ? { noIndex: true } : {}),
        ...(page.noRobotsIndex ? { noRobotsIndex: true } : {})
      }
      if (previousText === undefined || previous === undefined) {
        titles.set(page.id, { previous: undefined, kept: false })
        out.set(`${prefix}${path}`, encoder.encode(writePage(fields, body)))
        continue
      }
      const old = previous.page
      const item = previousItems.get(path)
      // A title the file does not write (SUMMARY.md's text, or the file's name, gave it) stays unwritten.
      const derived = old.title === undefined && (item?.title.trim() === page.title || titleFromName(baseName(path)) === page.title)
      titles.set(page.id, { previous: old.title ?? item?.title.trim(), kept: old.title === page.title || derived })
      const oldCover = old.cover === undefined ? undefined : targetOf(dir, old.cover)
      const sameCover = (oldCover === undefined ? undefined : fileOfPath.get(oldCover)) === page.cover?.file &&
        (page.cover === undefined || page.cover.yPos === old.coverY)
      const kept = (key: "hidden" | "noIndex" | "noRobotsIndex", value: boolean) =>
        (old[key] ?? false) === value ? (old[key] !== undefined ? { [key]: old[key] } : {}) : value ? { [key]: true } : {}
      const patched: PageFields = {
        ...(derived ? {} : { title: page.title }),
        ...(page.description !== undefined ? { description: page.description } : {}),
        ...(page.icon !== undefined ? { icon: page.icon } : {}),
        ...kept("hidden", page.hidden),
        ...(sameCover
          ? { ...(old.cover !== undefined ? { cover: old.cover } : {}), ...(old.coverY !== undefined ? { coverY: old.coverY } : {}) }
          : {
            ...(fields.cover !== undefined ? { cover: fields.cover } : {}),
            ...(fields.coverY !== undefined ? { coverY: fields.coverY } : {})
          }),
        ...(page.layout !== undefined ? { layout: page.layout } : {}),
        ...kept("noIndex", page.noIndex),
        ...kept("noRobotsIndex", page.noRobotsIndex)
      }
      // An edit that wrote the whole page again (an editor, GitBook's document JSON) changes only the blocks it changed.
      const newBody = body === old.body ? body : yield* (yield* HeavyWork).run(keepUnchangedBlocksTask, old.body, body)
      out.set(`${prefix}${path}`, encoder.encode(patchPage(previousText, patched, newBody)))
    }

    // SUMMARY.md: each entry's previous text and spelling where its page kept its title and its file.
    const summaryDir = dirOf(config.summary)
    // A link page into a page of the space points at the page's file, as SUMMARY.md wrote it.
    const linkTarget = (href: string): string => {
      const linked = linkedPage(href)
      const path = linked === undefined ? undefined : pagePath.get(linked.page)
      if (linked === undefined || path === undefined) return href
      const target = `${path}${linked.anchor === undefined ? "" : `#${linked.anchor}`}`
      const previous = previousItems.get(target)?.target
      return previous !== undefined && targetOf(summaryDir, previous) === target
        ? previous
        : `${relativePath(summaryDir, path)}${linked.anchor === undefined ? "" : `#${linked.anchor}`}`
    }
    const item = (page: ContentPage): SummaryItem => {
      const path = page.kind === "link" ? undefined : pagePath.get(page.id)
      const previous = path === undefined ? undefined : previousItems.get(path)
      const title = titles.get(page.id)
      const keepText = previous !== undefined && title !== undefined && (title.kept || title.previous === page.title)
      const keepTarget = previous?.target !== undefined && targetOf(summaryDir, previous.target) === path
      return {
        kind: "item",
        title: keepText ? previous.title : page.title,
        ...(page.navigationLabel !== undefined ? { label: page.navigationLabel } : {}),
        target: page.kind === "link"
          ? linkTarget(page.href ?? "")
          : path === undefined
          ? undefined
          : keepTarget
          ? previous?.target
          : relativePath(summaryDir, path),
        items: childrenOf(page.id).map(item)
      }
    }
    const entries: Array<SummaryEntry> = childrenOf(null).map((page) =>
      page.kind === "group" ? { kind: "group", title: page.title, items: childrenOf(page.id).map(item) } : item(page)
    )
    out.set(`${prefix}${config.summary}`, encoder.encode(yield* (yield* HeavyWork).run(writeSummaryTask, summaryText ?? null, entries)))
    return out
  })
