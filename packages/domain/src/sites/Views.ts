import type { Membership } from "../organizations/Access.js"
import type { Page } from "../shared/Pagination.js"
import type { Space } from "../spaces/Space.js"
import type { SpaceView } from "../spaces/SpaceViews.js"
import { type SitePermissions, sitePermissions } from "./Policy.js"
import { sectionSegments, type ShownTree, shownTree, showsSpace, siteSpaceSegments } from "./Reading.js"
import type { Site, SiteSection, SiteSectionGroup, SiteSpace, SiteTree } from "./Site.js"
import * as Structure from "./Structure.js"

/** Where a site is published: behind its proxy, or at `/sites/<organization>/<site>` of the instance. */
export interface SiteLocation {
  readonly published: boolean
  readonly proxy: string | null
  /** The organization's hostname, else its id. */
  readonly organization: string
  /** The site's basename, else its id. */
  readonly site: string
}

/** A site as a member sees it. */
export interface SiteView {
  readonly site: Site
  readonly location: SiteLocation
  readonly permissions: SitePermissions
  /** Its site spaces, those of soft-deleted spaces not counted. */
  readonly siteSpaceCount: number
  /** The share key this read was made with, when it opens the site: published URLs carry it. */
  readonly shareKey: string | undefined
}

export interface SiteSpaceView {
  readonly siteSpace: SiteSpace
  readonly space: SpaceView
  readonly default: boolean
  /** The segments after the site's URL: the section's path (but the default section's), then its own (but the default's). */
  readonly path: ReadonlyArray<string>
}

export interface SectionView {
  readonly section: SiteSection
  readonly default: boolean
  readonly siteSpaces: ReadonlyArray<SiteSpaceView>
  readonly path: ReadonlyArray<string>
}

export interface GroupView {
  readonly group: SiteSectionGroup
  readonly sections: ReadonlyArray<SectionView>
}

/** The site's structure as published: its root site spaces, or its root sections and groups, in order. */
export type PublishedStructure =
  | { readonly type: "siteSpaces"; readonly items: ReadonlyArray<SiteSpaceView> }
  | { readonly type: "sections"; readonly items: ReadonlyArray<{ readonly section: SectionView } | { readonly group: GroupView }> }

/** A page of a site's items, with the site they are in (for their URLs). */
export interface SitePage<A> extends Page<A> {
  readonly site: SiteView
}

/** The secret that signs visitor tokens, and where visitors go to sign in and out. */
export interface PublishingAuthView {
  readonly privateKey: string
  readonly fallbackURL: string | null
  readonly logoutURL: string | null
}

/** A tree as readers see it (`shownTree`), with the views of its spaces. */
export interface VisibleTree extends ShownTree {
  readonly spaces: ReadonlyMap<string, SpaceView>
}

/** The spaces the organization's sites show (`showsSpace`) of those a site's site spaces are on. */
export const liveOf = (tree: SiteTree, onSpaces: ReadonlyArray<Space>) => onSpaces.filter((s) => showsSpace(tree.site.organizationId, s))

/** What readers see of a site's tree, from the views of the spaces it shows. */
export const shownWith = (tree: SiteTree, spaceViews: ReadonlyArray<SpaceView>): VisibleTree => {
  const bySpace = new Map(spaceViews.map((v) => [v.space.id as string, v]))
  return { ...shownTree(tree, (id) => bySpace.has(id)), spaces: bySpace }
}

const locationOf = (access: Membership, site: Site): SiteLocation => ({
  published: site.published,
  proxy: site.proxy,
  organization: access.organization.hostname ?? site.organizationId,
  site: site.basename ?? site.id
})

export const siteView = (access: Membership, site: Site, siteSpaceCount: number, shareKey?: string): SiteView => ({
  site,
  location: locationOf(access, site),
  permissions: sitePermissions(access.member),
  siteSpaceCount,
  shareKey
})

export const siteSpaceView = (shown: VisibleTree, siteSpace: SiteSpace): SiteSpaceView => ({
  siteSpace,
  space: shown.spaces.get(siteSpace.spaceId)!,
  default: shown.defaults.has(siteSpace.id),
  path: siteSpaceSegments(shown, siteSpace)
})

export const sectionView = (shown: VisibleTree, section: SiteSection): SectionView => ({
  section,
  default: shown.tree.site.defaultSectionId === section.id,
  path: sectionSegments(shown.tree, section.id),
  siteSpaces: Structure.siteSpacesIn(shown.tree, section.id).map((s) => siteSpaceView(shown, s))
})

export const groupView = (shown: VisibleTree, group: SiteSectionGroup): GroupView => ({
  group,
  sections: Structure.sectionsIn(shown.tree, group.id).map((s) => sectionView(shown, s))
})

/** Sections in structure order, each with a keyset that keeps that order: (group key ! section key). */
export const orderedSections = (tree: SiteTree) =>
  Structure.rootItems(tree).flatMap((item) =>
    item.kind === "section"
      ? [{ section: item as SiteSection, key: item.position }]
      : Structure.sectionsIn(tree, item.id).map((section) => ({ section, key: `${item.position}!${section.position}` }))
  )
