import type { OrganizationId, SiteSpaceId, SpaceId } from "../shared/Ids.js"
import type { Space } from "../spaces/Space.js"
import { sameSecret } from "../shared/Secrets.js"
import type { ShareLink, Site, SiteSpace, SiteTree } from "./Site.js"
import { defaultOf, hasSections, type Scope, siteSpacesIn } from "./Structure.js"

/**
 * How readers see a site (conventions-2.md §1.1, §1.3): the site spaces of soft-deleted spaces
 * hidden, a default in every non-empty scope, the paths of published URLs, and which share keys
 * open it. The sites' reads and the spaces' published URLs both go through here.
 */

/** Whether a site of the organization shows the space: not soft-deleted, and not transferred away. */
export const showsSpace = (organizationId: OrganizationId, space: Space): boolean =>
  space.deletedAt === undefined && space.organizationId === organizationId

/** A tree without the site spaces of hidden spaces, and the default of each scope among those left. */
export interface ShownTree {
  readonly tree: SiteTree
  readonly defaults: ReadonlySet<SiteSpaceId>
}

export const shownTree = (tree: SiteTree, live: (spaceId: SpaceId) => boolean): ShownTree => {
  const shown: SiteTree = { ...tree, siteSpaces: tree.siteSpaces.filter((s) => live(s.spaceId)) }
  const defaults = new Set<SiteSpaceId>()
  const scopes: Array<Scope> = hasSections(tree) ? tree.sections.map((s) => s.id) : [null]
  for (const scope of scopes) {
    const members = siteSpacesIn(shown, scope)
    const stored = defaultOf(tree, scope)
    // A hidden default leaves the place to the first one shown.
    const dflt = members.find((s) => s.id === stored) ?? members[0]
    if (dflt !== undefined) defaults.add(dflt.id)
  }
  return { tree: shown, defaults }
}

/** A section's segment of published URLs: none for the default section. */
export const sectionSegments = (tree: SiteTree, sectionId: Scope): ReadonlyArray<string> => {
  if (sectionId === null || tree.site.defaultSectionId === sectionId) return []
  const section = tree.sections.find((s) => s.id === sectionId)
  return section === undefined ? [] : [section.path]
}

/** A site space's segments after the site's address: its section's, then its own but for the default's. */
export const siteSpaceSegments = (shown: ShownTree, siteSpace: SiteSpace): ReadonlyArray<string> => {
  const section = sectionSegments(shown.tree, siteSpace.sectionId)
  return shown.defaults.has(siteSpace.id) ? section : [...section, siteSpace.path]
}

/**
 * The key, when it opens the site: an active share key of a published share-link site. Anything
 * else is ignored, not refused. Every active key is compared, each in constant time.
 */
export const openingKey = (site: Site, key: string | undefined, active: ReadonlyArray<ShareLink>): string | undefined => {
  if (key === undefined || site.visibility !== "share-link" || !site.published) return undefined
  let matched = false
  for (const link of active) matched = (link.siteId === site.id && sameSecret(link.key, key)) || matched
  return matched ? key : undefined
}
