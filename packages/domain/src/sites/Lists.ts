import type { SiteId } from "../shared/Ids.js"
import { listKey, type ListKey } from "../shared/Pagination.js"
import type { SiteRedirectListFilter } from "./Redirect.js"
import type { SiteListFilter } from "./Site.js"

/** An organization's sites, by (createdAt, id), with the filters. */
export const siteListKey = (organizationId: string, filter: SiteListFilter): ListKey =>
  listKey("sites", "number", organizationId, filter.space, filter.title, filter.published, filter.types?.join(","))

/** A site's site spaces in structure order, with the `default` filter. */
export const siteSpaceListKey = (siteId: SiteId, dflt: boolean | undefined): ListKey => listKey("site-spaces", "string", siteId, dflt)

/** A site's sections in structure order. */
export const sectionListKey = (siteId: SiteId): ListKey => listKey("site-sections", "string", siteId)

/** A site's section groups in order. */
export const groupListKey = (siteId: SiteId): ListKey => listKey("site-section-groups", "string", siteId)

/** A site's share links, by (createdAt, id), with the search. */
export const shareLinkListKey = (siteId: SiteId, search: string | undefined): ListKey => listKey("share-links", "number", siteId, search)

/** A site's redirects in the filter's order, live or drafts, with the search. */
export const siteRedirectListKey = (siteId: SiteId, filter: SiteRedirectListFilter): ListKey =>
  listKey("site-redirects", filter.orderBy === "source" ? "string" : "number", siteId, filter.draft ?? false, filter.orderBy, filter.search)
