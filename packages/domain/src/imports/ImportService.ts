import { Effect, Schema } from "effect"
import { type AppliedChange, MAX_FILE_BYTES } from "../content/Changes.js"
import { ChangeRequestContent } from "../content/ChangeRequestContentService.js"
import { LiveEdits } from "../content/LiveEditService.js"
import { slugify } from "../content/Markdown.js"
import type { RevisionContent } from "../content/Page.js"
import { Conflict, InvalidInput } from "../shared/Errors.js"
import { PageId, type RevisionId, type SpaceId } from "../shared/Ids.js"
import { boundedString, HttpUrl, validate } from "../shared/Limits.js"
import { Secrets } from "../shared/Secrets.js"
import { heavyTask, HeavyWork, type Unreadable } from "../shared/HeavyWork.js"
import { decodeHtml, readHtml } from "@octavo/markdown"
import { type FetchedResource, WebFetcher } from "./Ports.js"

export const ImportSource = boundedString({ min: 1, max: 50 }).pipe(
  Schema.filter((s) => s === "website" || `must be "website", the one source this server imports from; got ${JSON.stringify(s)}`)
)

export const ImportInput = Schema.Struct({ url: HttpUrl, source: ImportSource })
export type ImportInput = typeof ImportInput.Type

/** How far an import reaches (README, "Importing a website"). */
export const IMPORT_LIMITS = {
  /** Pages imported at most, the first page included. */
  pages: 100,
  /** Link hops from the first page. */
  depth: 3,
  /** Images imported at most. */
  images: 100,
  /** Largest HTML page fetched. */
  pageBytes: 2 * 1024 * 1024,
  /** Largest image fetched: the largest file a space holds. */
  imageBytes: MAX_FILE_BYTES,
  /** Fetches at a time. */
  concurrency: 4
} as const

export interface ImportResult {
  readonly revision: RevisionId
  readonly importedResources: number
  readonly totalResources: number
}

/** What a crawl reads of a page: its title, and the URLs it links to and shows (`readHtml`). */
interface HtmlFacts {
  readonly title: string | undefined
  readonly links: ReadonlyArray<string>
  readonly images: ReadonlyArray<string>
}

interface ImportedPage {
  readonly url: string
  /** The page's HTML, converted to markdown once every page's id is known. */
  readonly source: string
  readonly html: HtmlFacts
}

interface ImportedImage {
  readonly url: string
  readonly bytes: Uint8Array
  readonly contentType: string
}

/** What a crawl brought back: pages in the order they were found, images, and how many resources it saw. */
interface Site {
  readonly pages: ReadonlyArray<ImportedPage>
  /** Every URL that led to a page, redirects included, with the page's final URL. */
  readonly aliases: ReadonlyMap<string, string>
  readonly images: ReadonlyArray<ImportedImage>
  readonly total: number
}

const withoutFragment = (url: string): string => url.replace(/#.*$/, "")

/** A fetched page read (on the worker pool in the server: a page may be megabytes of HTML). */
export const readHtmlTask = heavyTask("imports.readHtml", (html: string, url: string): HtmlFacts => {
  const { title, links, images } = readHtml(html, url)
  return { title, links, images }
})

/**
 * A page's main content as markdown, with its links and images pointing where `links` and `images` say: by URL
 * without its fragment for a link (the fragment is kept), by URL for an image; others stay as they are.
 */
export const htmlToMarkdownTask = heavyTask(
  "imports.htmlToMarkdown",
  (
    html: string,
    url: string,
    links: ReadonlyArray<readonly [string, string]>,
    images: ReadonlyArray<readonly [string, string]>
  ): string => {
    const linkTo = new Map(links)
    const imageTo = new Map(images)
    return readHtml(html, url).toMarkdown({
      link: (href) => {
        const to = linkTo.get(withoutFragment(href))
        return to === undefined ? href : `${to}${href.includes("#") ? href.slice(href.indexOf("#")) : ""}`
      },
      image: (src) => imageTo.get(src) ?? src
    })
  }
)

const isHtml = (resource: FetchedResource) =>
  resource.status >= 200 && resource.status < 300 &&
  (resource.contentType === "text/html" || resource.contentType === "application/xhtml+xml")

/** The path segments that place a page: "/docs/guide/index.html" → ["docs", "guide"]. */
const segmentsOf = (url: string): ReadonlyArray<string> =>
  new URL(url).pathname
    .split("/")
    .filter((s) => s !== "")
    .filter((s, i, all) => !(i === all.length - 1 && /^index\.html?$/i.test(s)))
    .map((s) => {
      try {
        return decodeURIComponent(s)
      } catch {
        return s
      }
    })

const isUnder = (segments: ReadonlyArray<string>, prefix: ReadonlyArray<string>) =>
  prefix.length < segments.length && prefix.every((s, i) => segments[i] === s)

/** A slug not yet used among `taken`: the base, else base-2, base-3… */
const freeSlug = (base: string, taken: Set<string>): string => {
  let slug = base
  for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 95).replace(/-+$/, "")}-${n}`
  taken.add(slug)
  return slug
}

/**
 * At most `max` UTF-16 units of a text, without NULs and never ending in half a surrogate pair:
 * what a site sends must fit the limits and encodings every storage accepts.
 */
const clip = (text: string, max: number): string => {
  const clipped = text.replaceAll("\u0000", "").slice(0, max)
  const last = clipped.charCodeAt(clipped.length - 1)
  return last >= 0xd800 && last <= 0xdbff ? clipped.slice(0, -1) : clipped
}

/** A page title from whatever a site offers: control characters become blanks. */
const titleOf = (candidates: ReadonlyArray<string | undefined>): string | undefined => {
  for (const candidate of candidates) {
    // Control characters are U+0000 to U+001F and U+007F: the code units outside the two printable ranges (written so that
    // the pattern holds no control character).
    const title = clip((candidate ?? "").replace(/[^\u0020-\u007e\u0080-\uffff]+/g, " ").trim(), 255).trim()
    if (title !== "") return title
  }
  return undefined
}

const fileNameOf = (url: string, contentType: string): string => {
  // Only the end of a (possibly very long) last segment is kept, before any pattern runs on it.
  const last = (new URL(url).pathname.split("/").filter((s) => s !== "").pop() ?? "").slice(-200)
  const cleaned = last.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "").slice(-100)
  if (/\.[a-z0-9]+$/.test(cleaned)) return cleaned
  const extension = contentType.split("/")[1]?.replace(/\+.*$/, "").replace("jpeg", "jpg") ?? "bin"
  return `${cleaned || "image"}.${extension}`
}

const toBase64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** A page the parser could not read (nested past its stack, or not read in time) fails the import as bad input. */
const unreadable = ({ rule }: Unreadable) => new InvalidInput({ field: "url", rule: `could not be imported: a page ${rule}` })

/** Imports content from elsewhere into a space or a change request (conventions.md, api.md "Import result"). */
export class Imports extends Effect.Service<Imports>()("@octavo/domain/Imports", {
  effect: Effect.gen(function*() {
    const liveEdits = yield* LiveEdits
    const changeRequestContent = yield* ChangeRequestContent
    const fetcher = yield* WebFetcher
    const secrets = yield* Secrets

    /**
     * Fetches the page at `start` and, breadth first, the pages it links to on the same site and
     * under the same directory, within IMPORT_LIMITS. Only a failure of the first page fails it.
     */
    const crawl = (start: string) =>
      Effect.gen(function*() {
        const heavy = yield* HeavyWork
        const read = (body: Uint8Array, charset: string | undefined, url: string) => {
          const source = decodeHtml(body, charset)
          return Effect.map(heavy.run(readHtmlTask, source, url), (html): ImportedPage => ({ url, source, html }))
        }
        const first = yield* fetcher.fetch(start, { maxBytes: IMPORT_LIMITS.pageBytes }).pipe(
          Effect.mapError((e) => new InvalidInput({ field: "url", rule: `could not be imported: ${e.reason}` }))
        )
        if (first.status < 200 || first.status >= 300) {
          return yield* new InvalidInput({ field: "url", rule: `could not be imported: the site answered with status ${first.status}` })
        }
        if (!isHtml(first)) {
          return yield* new InvalidInput({
            field: "url",
            rule: `could not be imported: it is not an HTML page (${first.contentType || "no content type"})`
          })
        }
        const origin = new URL(first.url).origin
        const scope = new URL(".", first.url).pathname
        const inScope = (url: string) => {
          const parsed = new URL(url)
          return parsed.origin === origin && parsed.pathname.startsWith(scope)
        }
        const pages: Array<ImportedPage> = [yield* read(first.body, first.charset, first.url)]
        const aliases = new Map<string, string>([[withoutFragment(new URL(start).href), first.url], [first.url, first.url]])
        const seen = new Set<string>(aliases.keys())
        let frontier: ReadonlyArray<ImportedPage> = pages
        for (let depth = 1; depth <= IMPORT_LIMITS.depth && frontier.length > 0; depth++) {
          const next: Array<string> = []
          for (const page of frontier) {
            for (const link of page.html.links) {
              if (!seen.has(link) && inScope(link)) {
                seen.add(link)
                next.push(link)
              }
            }
          }
          const room = Math.max(0, IMPORT_LIMITS.pages - pages.length)
          const fetched = yield* Effect.forEach(next.slice(0, room), (url) =>
            fetcher.fetch(url, { maxBytes: IMPORT_LIMITS.pageBytes }).pipe(
              Effect.map((resource) => ({ url, resource })),
              Effect.option
            ), { concurrency: IMPORT_LIMITS.concurrency })
          const found: Array<ImportedPage> = []
          for (const result of fetched) {
            if (result._tag === "None" || !isHtml(result.value.resource) || !inScope(result.value.resource.url)) continue
            const { resource, url } = result.value
            if (aliases.has(resource.url)) {
              aliases.set(url, aliases.get(resource.url) as string)
              continue
            }
            aliases.set(url, resource.url)
            aliases.set(resource.url, resource.url)
            found.push(yield* read(resource.body, resource.charset, resource.url))
          }
          pages.push(...found)
          frontier = found
        }
        const imageUrls = Array.from(new Set(pages.flatMap((page) => page.html.images)))
        const images = (yield* Effect.forEach(imageUrls.slice(0, IMPORT_LIMITS.images), (url) =>
          fetcher.fetch(url, { maxBytes: IMPORT_LIMITS.imageBytes }).pipe(Effect.option), { concurrency: IMPORT_LIMITS.concurrency }))
          .flatMap((result, i) =>
            result._tag === "Some" && result.value.status >= 200 && result.value.status < 300 &&
              result.value.contentType.startsWith("image/")
              ? [{ url: imageUrls[i] as string, bytes: result.value.body, contentType: result.value.contentType }]
              : []
          )
        // Every page URL seen on the site counts once, however many addresses led to it.
        const pageUrls = new Set(Array.from(seen, (url) =>
          aliases.get(url) ?? url))
        return { pages, aliases, images, total: pageUrls.size + imageUrls.length } satisfies Site
      }).pipe(Effect.catchTag("Unreadable", (error) => Effect.fail(unreadable(error))))

    /**
     * The changes that add a crawled site to `base`: its images as files, then its pages nested by
     * their paths (a page goes under the nearest imported page whose path holds its own), appended
     * at the top of the content, with links between them and to the images pointing inside.
     */
    /**
     * Every page's id, and its markdown with links to imported pages naming them by id and images their file by a
     * batch ref (both resolve when the batch applies): converted before the content is locked, on the worker pool.
     */
    const convert = (site: Site) =>
      Effect.gen(function*() {
        const heavy = yield* HeavyWork
        const ids = new Map<string, PageId>()
        for (const page of site.pages) ids.set(page.url, PageId.make(yield* secrets.newId))
        const imageRefs = new Map(site.images.map((image, i) => [image.url, `~image-${i}`] as const))
        const links = Array.from(site.aliases).flatMap(([url, page]) => {
          const id = ids.get(page)
          return id === undefined ? [] : [[url, `/pages/${id}`] as const]
        })
        const images = Array.from(imageRefs, ([url, ref]) => [url, `./${ref}`] as const)
        const markdown = new Map<string, string>()
        for (const page of site.pages) {
          markdown.set(page.url, clip(yield* heavy.run(htmlToMarkdownTask, page.source, page.url, links, images), 1_000_000))
        }
        return { ids, imageRefs, markdown }
      }).pipe(Effect.catchTag("Unreadable", (error) => Effect.fail(unreadable(error))))

    const plan = (site: Site, converted: Effect.Effect.Success<ReturnType<typeof convert>>, base: RevisionContent) =>
      Effect.sync(() => {
        const { ids, imageRefs, markdown } = converted
        const segments = new Map(site.pages.map((page) => [page.url, segmentsOf(page.url)]))
        const parentOf = new Map<string, string | null>()
        for (const page of site.pages) {
          const own = segments.get(page.url) ?? []
          let parent: string | null = null
          let best = -1
          for (const other of site.pages) {
            const prefix = segments.get(other.url) ?? []
            if (other.url !== page.url && prefix.length > best && isUnder(own, prefix)) {
              parent = other.url
              best = prefix.length
            }
          }
          parentOf.set(page.url, parent)
        }
        // Slugs: unique among siblings, the space's top-level pages included.
        const takenUnder = new Map<string | null, Set<string>>([
          [null, new Set(Array.from(base.pages.values()).filter((p) => p.parentId === null).map((p) => p.slug))]
        ])
        const slugs = new Map<string, string>()
        const paths = new Map<string, string>()
        const titles = new Map<string, string>()
        const ordered: Array<ImportedPage> = []
        const place = (url: string | null, prefix: string) => {
          for (const page of site.pages.filter((p) => parentOf.get(p.url) === url)) {
            const own = segments.get(page.url) ?? []
            const title = titleOf([page.html.title, own[own.length - 1], new URL(page.url).hostname]) ?? "Untitled"
            const taken = takenUnder.get(url) ?? new Set<string>()
            takenUnder.set(url, taken)
            const last = own[own.length - 1]
            const slug = freeSlug(slugify(last === undefined ? title : last.replace(/\.html?$/i, "")), taken)
            slugs.set(page.url, slug)
            titles.set(page.url, title)
            paths.set(page.url, prefix === "" ? slug : `${prefix}/${slug}`)
            ordered.push(page)
            place(page.url, paths.get(page.url) as string)
          }
        }
        place(null, "")
        const takenFiles = new Set(Array.from(base.files.values(), (f) => f.name))
        const fileNames = new Map(site.images.map((image) => {
          const name = fileNameOf(image.url, image.contentType)
          const dot = name.lastIndexOf(".")
          let unique = name
          for (let n = 2; takenFiles.has(unique); n++) unique = `${name.slice(0, dot)}-${n}${name.slice(dot)}`
          takenFiles.add(unique)
          return [image.url, unique] as const
        }))
        const changes: Array<AppliedChange> = []
        // At most 20 files a change, as for any caller.
        for (let start = 0; start < site.images.length; start += 20) {
          changes.push({
            operation: "insert_files",
            files: site.images.slice(start, start + 20).map((image) => ({
              name: fileNames.get(image.url) as string,
              ref: imageRefs.get(image.url) as string,
              contentType: image.contentType,
              base64: toBase64(image.bytes)
            }))
          })
        }
        for (const page of ordered) {
          const parent = parentOf.get(page.url) ?? null
          changes.push({
            operation: "insert_page",
            id: ids.get(page.url) as PageId,
            title: titles.get(page.url) as string,
            slug: slugs.get(page.url) as string,
            document: { markdown: markdown.get(page.url) ?? "" },
            into: parent === null ? null : ids.get(parent) as PageId
          })
        }
        return changes
      })

    const resultOf = (site: Site, revision: RevisionId): ImportResult => ({
      revision,
      importedResources: site.pages.length + site.images.length,
      totalResources: site.total
    })

    /** Into the space's content, as a new revision: `edit` level; a locked space refuses (409). */
    const intoSpace = (spaceId: SpaceId, input: ImportInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(ImportInput)(input)
        // Nothing is fetched for a caller who could not write the result.
        yield* liveEdits.requireEditable(spaceId)
        const site = yield* crawl(valid.url)
        const converted = yield* convert(site)
        const view = yield* liveEdits.editLiveWith(spaceId, (base) => plan(site, converted, base))
        return resultOf(site, view.revision.id)
      })

    /**
     * Into a change request that is still open for work, as a new revision of it: `edit` level; a
     * locked space refuses imports here too (409), as conventions.md says.
     */
    const intoChangeRequest = (spaceId: SpaceId, reference: string, input: ImportInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(ImportInput)(input)
        const { space } = yield* changeRequestContent.requireEditable(spaceId, reference)
        if (space.editMode === "locked") return yield* new Conflict({ reason: "The space is locked: nothing can be imported into it" })
        const site = yield* crawl(valid.url)
        const converted = yield* convert(site)
        const view = yield* changeRequestContent.editWith(spaceId, reference, (base) => plan(site, converted, base))
        return resultOf(site, view.revision.id)
      })

    return { intoSpace, intoChangeRequest } as const
  })
}) {}
