import { Context, type Effect, type Option } from "effect"
import type { Membership } from "../organizations/Access.js"
import type { Conflict } from "../shared/Errors.js"
import type {
  OrganizationId,
  ShareLinkId,
  SiteRedirectId,
  SiteId,
  SiteSectionGroupId,
  SiteSectionId,
  SiteSpaceId,
  SpaceId,
  UserId
} from "../shared/Ids.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type { Organization } from "../organizations/Organization.js"
import type { SpaceFacts } from "../spaces/Facts.js"
import type { Collection, Space } from "../spaces/Space.js"
import type { SiteRedirect, SiteRedirectOrderBy } from "./Redirect.js"
import type { ShareLink, Site, SiteSection, SiteSectionGroup, SiteSpace, SiteType } from "./Site.js"

/** Which of an organization's sites a list holds; keyset (createdAt ms, id) ascending. */
export interface SiteFilter {
  /** Sites with a site space on this space. */
  readonly spaceId?: SpaceId | undefined
  /** A case-insensitive substring of the title. */
  readonly title?: string | undefined
  readonly published?: boolean | undefined
  /** Any of these types; absent or empty, any type. */
  readonly types?: ReadonlyArray<SiteType> | undefined
}

export class SiteRepository extends Context.Tag("@octavo/domain/SiteRepository")<SiteRepository, {
  /** Fails with Conflict when the basename (per organization) or the proxy (per instance) is taken, case-insensitively. */
  readonly insert: (site: Site) => Effect.Effect<void, Conflict>
  /** Writes every field; the same conflicts as insert. */
  readonly update: (site: Site) => Effect.Effect<void, Conflict>
  /** Removes the site and everything under it: sections, groups, site spaces, share links, redirects. */
  readonly remove: (id: SiteId) => Effect.Effect<void>
  readonly findById: (id: SiteId) => Effect.Effect<Option.Option<Site>>
  /** The site with the user's membership of its organization (none for an outsider), in one read. */
  readonly findForAccess: (id: SiteId, userId: UserId) => Effect.Effect<Option.Option<SiteForAccess>>
  /** The organization's site with this basename, compared ignoring case (the published URLs' form). */
  readonly findByBasename: (organizationId: OrganizationId, basename: string) => Effect.Effect<Option.Option<Site>>
  /**
   * In a unit of work: waits for, then holds until the unit ends, the site's lock, so that changes
   * to one site's structure take turns. Memory units of work already run one at a time.
   */
  readonly lock: (id: SiteId) => Effect.Effect<void>
  readonly list: (organizationId: OrganizationId, filter: SiteFilter, page: PageRequest) => Effect.Effect<Page<Site>>
  /** The sites that hold a site space on the space. */
  readonly holding: (spaceId: SpaceId) => Effect.Effect<ReadonlyArray<SiteId>>
}>() {}

/** A site and what access to it is decided from: the reader's membership of its organization, if any. */
export interface SiteForAccess {
  readonly site: Site
  readonly membership: Option.Option<Membership>
}

/** What a structural change writes: the items added or changed, and the ids of those removed. */
export interface StructureWrites {
  readonly sections: { readonly put: ReadonlyArray<SiteSection>; readonly removed: ReadonlyArray<SiteSectionId> }
  readonly groups: { readonly put: ReadonlyArray<SiteSectionGroup>; readonly removed: ReadonlyArray<SiteSectionGroupId> }
  readonly siteSpaces: { readonly put: ReadonlyArray<SiteSpace>; readonly removed: ReadonlyArray<SiteSpaceId> }
}

/** A site's sections, section groups and site spaces. */
export class SiteStructureRepository extends Context.Tag("@octavo/domain/SiteStructureRepository")<SiteStructureRepository, {
  /** Every section, group and site space of the site (site spaces of soft-deleted spaces too), in no particular order. */
  readonly load: (siteId: SiteId) => Effect.Effect<SiteStructureRows>
  /** Removals first, then inserts or overwrites by id. */
  readonly write: (writes: StructureWrites) => Effect.Effect<void>
  /** The site spaces on any of these spaces, as (site, space) pairs. */
  readonly onSpaces: (
    spaceIds: ReadonlyArray<SpaceId>
  ) => Effect.Effect<ReadonlyArray<{ readonly siteId: SiteId; readonly spaceId: SpaceId }>>
  /** The spaces each of the sites' site spaces is on, for counting. */
  readonly spacesOf: (
    siteIds: ReadonlyArray<SiteId>
  ) => Effect.Effect<ReadonlyArray<{ readonly siteId: SiteId; readonly spaceId: SpaceId }>>
}>() {}

export class ShareLinkRepository extends Context.Tag("@octavo/domain/ShareLinkRepository")<ShareLinkRepository, {
  readonly insert: (link: ShareLink) => Effect.Effect<void>
  readonly update: (link: ShareLink) => Effect.Effect<void>
  readonly remove: (id: ShareLinkId) => Effect.Effect<void>
  readonly findById: (id: ShareLinkId) => Effect.Effect<Option.Option<ShareLink>>
  /** Keyset (createdAt ms, id) ascending; `search` is a case-insensitive substring of the name or the key. */
  readonly list: (siteId: SiteId, search: string | undefined, page: PageRequest) => Effect.Effect<Page<ShareLink>>
  /** The site's active links, to compare a key against each in constant time. */
  readonly active: (siteId: SiteId) => Effect.Effect<ReadonlyArray<ShareLink>>
}>() {}

/** Which of a site's redirects a list holds, in which order (`redirectKeyset`). */
export interface SiteRedirectFilter {
  /** A case-insensitive substring of the source. */
  readonly search?: string | undefined
  /** Drafts, or live ones. */
  readonly draft: boolean
  readonly orderBy: SiteRedirectOrderBy
}

export class SiteRedirectRepository extends Context.Tag("@octavo/domain/SiteRedirectRepository")<SiteRedirectRepository, {
  /** Fails with Conflict when the site has a redirect of this source already, among the live ones or among the drafts. */
  readonly insert: (redirect: SiteRedirect) => Effect.Effect<void, Conflict>
  /** Writes every field; the same conflict as insert. */
  readonly update: (redirect: SiteRedirect) => Effect.Effect<void, Conflict>
  readonly remove: (id: SiteRedirectId) => Effect.Effect<void>
  readonly findById: (id: SiteRedirectId) => Effect.Effect<Option.Option<SiteRedirect>>
  readonly findBySource: (siteId: SiteId, source: string, draft: boolean) => Effect.Effect<Option.Option<SiteRedirect>>
  /** How many redirects the site has, drafts included. */
  readonly count: (siteId: SiteId) => Effect.Effect<number>
  readonly list: (siteId: SiteId, filter: SiteRedirectFilter, page: PageRequest) => Effect.Effect<Page<SiteRedirect>>
  /** The site's live redirects whose source is one of these, in no particular order. */
  readonly matching: (siteId: SiteId, sources: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<SiteRedirect>>
}>() {}

/** A site's sections, groups and site spaces, as `SiteStructureRepository.load` answers them. */
export interface SiteStructureRows {
  readonly sections: ReadonlyArray<SiteSection>
  readonly groups: ReadonlyArray<SiteSectionGroup>
  readonly siteSpaces: ReadonlyArray<SiteSpace>
}

/**
 * What a list of sites takes from the spaces context with the sites' own rows. A storage that can
 * read them in one round trip answers it so; the others answer it with `SiteReadsOneByOne` (sites/Reads.ts).
 */
export class SiteReads extends Context.Tag("@octavo/domain/SiteReads")<SiteReads, {
  /**
   * As `SiteStructureRepository.spacesOf` answers (`held`), with the spaces of those pairs as
   * `SpaceRepository.findMany` answers them: what a list of sites counts.
   */
  readonly spacesOf: (siteIds: ReadonlyArray<SiteId>) => Effect.Effect<{
    readonly held: ReadonlyArray<{ readonly siteId: SiteId; readonly spaceId: SpaceId }>
    readonly spaces: ReadonlyArray<Space>
  }>
}>() {}

/** What a read of a site shows of its tree, read at once. */
export interface SiteTreeRead {
  readonly structure: SiteStructureRows
  /** The spaces its site spaces are on (soft-deleted ones too), as `SpaceRepository.findMany` answers them. */
  readonly spaces: ReadonlyArray<Space>
  /** The organization's collections, as `CollectionRepository.listAll` answers them. */
  readonly collections: ReadonlyArray<Collection>
  /** What later contexts show of those spaces, as `SpaceFactShows` shows them. */
  readonly facts: SpaceFacts
}

/**
 * A site's tree with everything a read of the site shows of it, from its rows read at once (`SiteTreeRowReads`,
 * one statement on PostgreSQL): `SiteTreeReadsLive`.
 */
export class SiteTreeReads extends Context.Tag("@octavo/domain/SiteTreeReads")<SiteTreeReads, {
  /** `shareKey` is the one the read was made with, if any (for the spaces' published places). */
  readonly tree: (site: Site, organization: Organization, shareKey: string | undefined) => Effect.Effect<SiteTreeRead>
}>() {}

/** The storage the sites context owns. */
export type SitesPorts = SiteRepository | SiteStructureRepository | ShareLinkRepository | SiteRedirectRepository
