import { Effect, Option, Schema } from "effect"
import { gitRedirectAt } from "../gitsync/Redirects.js"
import { GitSyncRepository } from "../gitsync/Ports.js"
import { type PageNode, pageTree } from "../content/Changes.js"
import { type PathIndex, pathIndex } from "../content/Resolve.js"
import type { RevisionContent } from "../content/Page.js"
import { BlobStore } from "../content/Ports.js"
import { RevisionContents } from "../content/RevisionContents.js"
import type { TrackEvent } from "../insights/Track.js"
import { Insights } from "../insights/InsightsService.js"
import { Search } from "../search/SearchService.js"
import { VisitorTokens } from "../insights/Ports.js"
import type { Organization } from "../organizations/Organization.js"
import { OrganizationRepository } from "../organizations/Ports.js"
import { NotFound } from "../shared/Errors.js"
import type { FileId, OrganizationId, RevisionId, SiteId, SpaceId } from "../shared/Ids.js"
import { ShareLinkRepository, SiteRedirectRepository, SiteRepository, SiteStructureRepository } from "../sites/Ports.js"
import { openingKey, type ShownTree, shownTree, showsSpace, siteSpaceSegments } from "../sites/Reading.js"
import { bestMatch, candidateSources, type RedirectTarget, redirectStatus, targetIn, withSuffix } from "../sites/Redirect.js"
import type { Site, SiteSection, SiteSpace } from "../sites/Site.js"
import { sectionsInOrder, siteSpacesIn } from "../sites/Structure.js"
import { SpaceRepository } from "../spaces/Ports.js"
import type { Space } from "../spaces/Space.js"
import {
  conditionHolds,
  indexPages,
  linksFrom,
  locate,
  neighbours,
  type PageIndex,
  pageAtPath,
  type ReaderLink,
  siteSpaceAddress,
  unsignedClaims,
  visitorTree
} from "./Reading.js"

/** A `visitor-auth` site asked for a visitor token it was not given (or not a valid one). */
export class VisitorSignInRequired extends Schema.TaggedError<VisitorSignInRequired>()("VisitorSignInRequired", {
  /** Where the site sends visitors to sign in; null shows a page saying so. */
  fallbackURL: Schema.NullOr(Schema.String)
}) {}

/** What a visitor's browser brings: a share key (from the URL or the site's cookie), a visitor token (likewise). */
export interface VisitorCredentials {
  readonly shareKey?: string | undefined
  readonly visitorToken?: string | undefined
  /** `?visitor.<name>=` pairs of the URL, names without the prefix. */
  readonly unsigned?: ReadonlyArray<readonly [string, string]> | undefined
}

/** A published site opened for one visitor. */
export interface OpenedSite {
  readonly organization: Organization
  readonly site: Site
  /** The structure the visitor sees, conditions applied. */
  readonly shown: ShownTree
  readonly spaces: ReadonlyMap<SpaceId, Space>
  /**
   * What conditions and insights read of the visitor: the verified token's claims, and the unsigned ones
   * of the URL under `unsigned`; null with neither.
   */
  readonly claims: Readonly<Record<string, unknown>> | null
  /** Whether a verified visitor token vouches for the claims. */
  readonly authenticated: boolean
  /** When the token that admitted the visitor expires (seconds since the epoch). */
  readonly tokenExpires: number | undefined
  /** The active share key that opened a `share-link` site. */
  readonly shareKey: string | undefined
}

/** A page a visitor's search found, with the sections that matched (their anchors as the page's headings carry them). */
export interface ReaderSearchResult {
  readonly space: ReaderSpace
  readonly node: PageNode
  readonly sections: ReadonlyArray<{ readonly title: string; readonly anchor: string; readonly body: string }>
}

/** One site space's pages as the reader shows them. */
export interface ReaderSpace {
  readonly siteSpace: SiteSpace
  readonly section: SiteSection | undefined
  readonly space: Space
  readonly revisionId: RevisionId
  readonly content: RevisionContent
  /** Its address after the site's ("" for the default site space of the default section). */
  readonly address: string
  /** Pages whose condition holds, hidden ones included (they open by URL). */
  readonly pages: ReadonlyArray<PageNode>
  /** The sidebar: without hidden pages. */
  readonly navigation: ReadonlyArray<PageNode>
  /** The pages looked up by path and id, and the sidebar's reading order. */
  readonly index: PageIndex
  /** The revision's paths, for resolving links. */
  readonly paths: PathIndex
}

/** Where a path that names no page leads instead, and with which status. */
export interface ReaderRedirect {
  readonly target: RedirectTarget
  readonly status: 301 | 307 | 308
}

/** How many revisions the reader keeps read (with their page tree and path index). */
const REMEMBERED_REVISIONS = 8

interface Revisioned {
  readonly content: RevisionContent
  readonly tree: ReadonlyArray<PageNode>
  readonly paths: PathIndex
  /** Its pages indexed as readers without claims see them (all of them, hidden ones out of the sidebar). */
  readonly index: PageIndex
}

/** A page opened at a URL. */
export interface ReaderPage extends ReaderSpace {
  readonly node: PageNode
  readonly previous: PageNode | undefined
  readonly next: PageNode | undefined
  /** Where a url written in this page leads. */
  readonly link: (url: string) => ReaderLink
}

const whereConditionsHold = (nodes: ReadonlyArray<PageNode>, claims: unknown, adaptive: boolean): ReadonlyArray<PageNode> =>
  nodes
    .filter((n) => conditionHolds(n.page.condition ?? null, claims, adaptive))
    .map((n) => ({ ...n, pages: whereConditionsHold(n.pages, claims, adaptive) }))

/**
 * The reader (issue 20): a published site as its visitors read it, without a member token. Which
 * visitors a site admits follows conventions-2.md §1.3: `public` and `unlisted` anyone, `share-link`
 * an active key, `visitor-auth` a valid HS256 visitor token (else `VisitorSignInRequired`); an
 * unpublished site, or one the visitor may not open, does not exist (404).
 */
export class Reader extends Effect.Service<Reader>()("@octavo/domain/Reader", {
  effect: Effect.gen(function*() {
    const organizations = yield* OrganizationRepository
    const sites = yield* SiteRepository
    const structures = yield* SiteStructureRepository
    const shareLinks = yield* ShareLinkRepository
    const spaces = yield* SpaceRepository
    const contents = yield* RevisionContents
    const blobs = yield* BlobStore
    const visitorTokens = yield* VisitorTokens
    const insights = yield* Insights
    const searchService = yield* Search
    const siteRedirects = yield* SiteRedirectRepository
    const gitSyncs = yield* GitSyncRepository

    const organizationOf = (key: string) =>
      Effect.gen(function*() {
        const byHostname = yield* organizations.findByHostname(key.toLowerCase())
        if (Option.isSome(byHostname)) return byHostname
        return yield* organizations.findById(key as OrganizationId)
      })

    const siteOf = (organizationId: OrganizationId, key: string) =>
      Effect.gen(function*() {
        const byBasename = yield* sites.findByBasename(organizationId, key)
        if (Option.isSome(byBasename)) return byBasename
        return Option.filter(yield* sites.findById(key as SiteId), (s) => s.organizationId === organizationId)
      })

    /**
     * Opens the site at `{organization}/{site}` for a visitor with the credentials the browser holds
     * for that site (cookies are per site, so they are asked for once the site is known).
     */
    const open = (organizationKey: string, siteKey: string, credentialsFor: (siteId: SiteId) => VisitorCredentials) =>
      Effect.gen(function*() {
        const notFound = new NotFound({ entity: "site", id: `${organizationKey}/${siteKey}` })
        const organization = yield* organizationOf(organizationKey)
        if (Option.isNone(organization)) return yield* notFound
        const found = yield* siteOf(organization.value.id, siteKey)
        if (Option.isNone(found) || !found.value.published) return yield* notFound
        const site = found.value
        const credentials = credentialsFor(site.id)
        const token = credentials.visitorToken
        const verified = token === undefined ? Option.none() : yield* visitorTokens.verify(token, site.publishingAuth.privateKey)
        let shareKey: string | undefined
        if (site.visibility === "share-link") {
          shareKey = credentials.shareKey === undefined
            ? undefined
            : openingKey(site, credentials.shareKey, yield* shareLinks.active(site.id))
          if (shareKey === undefined) return yield* notFound
        }
        if (site.visibility === "visitor-auth" && Option.isNone(verified)) {
          return yield* new VisitorSignInRequired({ fallbackURL: site.publishingAuth.fallbackURL })
        }
        const signed = Option.getOrNull(Option.map(verified, (t) => t.claims))
        const unsigned = unsignedClaims(site.adaptiveSchema?.jsonSchema, credentials.unsigned ?? [])
        const claims = Object.keys(unsigned).length === 0 ? signed : { ...signed, unsigned }
        const loaded = yield* structures.load(site.id)
        const held = yield* spaces.findMany([...new Set(loaded.siteSpaces.map((s) => s.spaceId))])
        const live = new Map(held.filter((s) => showsSpace(site.organizationId, s)).map((s) => [s.id, s] as const))
        const shown = visitorTree(shownTree({ site, ...loaded }, (id) => live.has(id)), claims ?? {})
        return {
          organization: organization.value,
          site,
          shown,
          spaces: live,
          claims,
          authenticated: signed !== null,
          tokenExpires: Option.getOrUndefined(Option.map(verified, (t) => t.expires)),
          shareKey
        } satisfies OpenedSite
      })

    // A revision never changes: the last ones read are kept with their page tree and path index, so that a
    // page view does not load and walk a whole revision again.
    const revisions = new Map<RevisionId, Revisioned>()
    const revisioned = (revisionId: RevisionId) => {
      const known = revisions.get(revisionId)
      if (known !== undefined) {
        revisions.delete(revisionId)
        revisions.set(revisionId, known)
        return Effect.succeed(known)
      }
      return Effect.map(contents.load(revisionId), (content) => {
        const tree = pageTree(content)
        const entry: Revisioned = { content, tree, paths: pathIndex(content), index: indexPages(tree) }
        revisions.set(revisionId, entry)
        if (revisions.size > REMEMBERED_REVISIONS) revisions.delete(revisions.keys().next().value as RevisionId)
        return entry
      })
    }

    const readerSpace = (opened: OpenedSite, siteSpace: SiteSpace) =>
      Effect.gen(function*() {
        const space = opened.spaces.get(siteSpace.spaceId)!
        const known = yield* revisioned(space.revisionId)
        // Conditions on pages count only with adaptive content on; then the index is the visitor's own.
        const index = opened.site.adaptiveContent
          ? indexPages(whereConditionsHold(known.tree, opened.claims ?? {}, true))
          : known.index
        const { content, paths } = known
        return {
          siteSpace,
          section: opened.shown.tree.sections.find((s) => s.id === siteSpace.sectionId),
          space,
          revisionId: space.revisionId,
          content,
          address: siteSpaceAddress(opened.shown, siteSpace),
          pages: index.pages,
          navigation: index.navigation,
          index,
          paths
        } satisfies ReaderSpace
      })

    /** The page at `segments` (after the site's address): `[section/][site space/][page path]`. */
    const page = (opened: OpenedSite, segments: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const notFound = new NotFound({ entity: "page", id: segments.join("/") })
        const located = locate(opened.shown, segments)
        if (located === undefined) return yield* notFound
        const space = yield* readerSpace(opened, located.siteSpace)
        const node = pageAtPath(space.index, located.pagePath.join("/"))
        if (node === undefined) return yield* notFound
        const link = linksFrom(space.content, space.index, node.page.id, space.paths)
        return { ...space, node, ...neighbours(space.index, node.page), link } satisfies ReaderPage
      })

    /** A site redirect's target as this visitor sees the site, a wildcard's suffix after it when the redirect captures it. */
    const siteRedirectTo = (opened: OpenedSite, found: NonNullable<ReturnType<typeof bestMatch>>) =>
      Effect.map(
        targetIn(opened.shown, found.redirect.destination, (siteSpace, pageId) =>
          Effect.map(readerSpace(opened, siteSpace), (space) =>
            space.index.byId.get(pageId)?.path)),
        (target): ReaderRedirect | undefined => {
          if (target === undefined)
            return undefined
          const { captureWildcard } = found.redirect
          const status = redirectStatus(found.redirect, opened.site.visibility === "public")
          if (target.kind === "url")
            return { status, target: { kind: "url", url: withSuffix(target.url, found.suffix, captureWildcard) } }
          const suffix = captureWildcard
            ? found.suffix.split("/").filter((s) =>
              s !== ""
            )
            : []
          return { status, target: { kind: "site", segments: [...target.segments, ...suffix] } }
        }
      )

    /** A Git Sync redirect (`.gitbook.yaml`) of the space the path is in, to the page imported from its target file. */
    const gitRedirectTo = (opened: OpenedSite, segments: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const located = locate(opened.shown, segments)
        if (located === undefined) return undefined
        const state = yield* gitSyncs.find(located.siteSpace.spaceId)
        const redirect = gitRedirectAt(Option.match(state, { onNone: () => [], onSome: (s) => s.redirects ?? [] }), located.pagePath)
        if (redirect === undefined) return undefined
        const space = yield* readerSpace(opened, located.siteSpace)
        const node = [...space.index.byId.values()].find((n) => n.page.git?.path === redirect.target)
        if (node === undefined) return undefined
        const where = [...siteSpaceSegments(opened.shown, located.siteSpace), ...node.path.split("/").filter((p) => p !== "")]
        return { status: 301, target: { kind: "site", segments: where } } satisfies ReaderRedirect
      })

    /**
     * Where a path that names no page leads (issue 39): the site's redirect of exactly that path, else the Git Sync
     * redirect of the space the path is in, else the site's longest wildcard that matches; none when nothing does.
     */
    const redirect = (opened: OpenedSite, segments: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const found = bestMatch(segments, yield* siteRedirects.matching(opened.site.id, candidateSources(segments)))
        const exact = found !== undefined && !found.redirect.source.endsWith("*")
        if (exact) {
          const target = yield* siteRedirectTo(opened, found)
          if (target !== undefined) return Option.some(target)
        }
        const fromGit = yield* gitRedirectTo(opened, segments)
        if (fromGit !== undefined) return Option.some(fromGit)
        if (found !== undefined && !exact) return Option.fromNullable(yield* siteRedirectTo(opened, found))
        return Option.none<ReaderRedirect>()
      })

    /** Every site space the visitor sees, in reading order (sections in order, then their site spaces). */
    const everySpace = (opened: OpenedSite) => {
      const { tree } = opened.shown
      const scopes = tree.sections.length > 0 ? sectionsInOrder(tree).map((s) => s.id) : [null]
      return Effect.forEach(scopes.flatMap((scope) => siteSpacesIn(tree, scope)), (s) => readerSpace(opened, s))
    }

    /** A file of a space the visitor sees: its bytes and type. */
    const file = (opened: OpenedSite, spaceId: SpaceId, fileId: FileId) =>
      Effect.gen(function*() {
        const notFound = new NotFound({ entity: "file", id: fileId })
        const space = opened.spaces.get(spaceId)
        if (space === undefined || !opened.shown.tree.siteSpaces.some((s) => s.spaceId === spaceId)) return yield* notFound
        const { content } = yield* revisioned(space.revisionId)
        const found = content.files.get(fileId)
        if (found === undefined) return yield* notFound
        const bytes = yield* blobs.get(found.blobKey)
        if (Option.isNone(bytes)) return yield* notFound
        return { file: found, bytes: bytes.value }
      })

    /**
     * The pages of the site a visitor's search finds, best first (at most 20), each in the first
     * site space that shows its space, with its matching sections; pages the visitor cannot see
     * in the sidebar (hidden, or a condition false) are left out.
     */
    const search = (opened: OpenedSite, query: string) =>
      Effect.gen(function*() {
        const siteSpaces = opened.shown.tree.siteSpaces
        const spaceIds = [...new Set(siteSpaces.map((s) => s.spaceId))]
        const found = yield* searchService.inPublishedSpaces(spaceIds, { query }, { limit: 20, after: Option.none() })
        const loaded = new Map<SpaceId, ReaderSpace>()
        const results: Array<ReaderSearchResult> = []
        for (const hit of found.items) {
          const siteSpace = siteSpaces.find((s) => s.spaceId === hit.spaceId)
          if (siteSpace === undefined) continue
          const space = loaded.get(hit.spaceId) ?? (yield* readerSpace(opened, siteSpace))
          loaded.set(hit.spaceId, space)
          const node = space.index.byId.get(hit.pageId as never)
          if (node === undefined || !space.index.placeOf.has(node.page.id)) continue
          results.push({
            space,
            node,
            sections: hit.sections.map((section) => ({ title: section.title, anchor: section.anchor, body: section.body }))
          })
        }
        return results
      })

    /** Records what the reader served (page views, searches, markdown and llms requests) for the site's insights. */
    const record = (opened: OpenedSite, events: ReadonlyArray<TrackEvent>) =>
      events.length === 0
        ? Effect.void
        : Effect.catchAll(
          insights.trackAdmitted(opened.site.id, { events: events as [TrackEvent, ...Array<TrackEvent>] }, {
            claims: opened.claims,
            authenticated: opened.authenticated
          }),
          (error) => Effect.logWarning("A reader's event was not recorded", error)
        )

    return { open, page, redirect, everySpace, file, search, record } as const
  })
}) {}
