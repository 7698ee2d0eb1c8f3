import type { ShareLink, Site, SiteRedirect, SiteSection, SiteSectionGroup, SiteSpace } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the sites context keeps in memory. */
export const SitesState = slice("@octavo/adapters-memory/sites", {
  /** By site id. */
  sites: HashMap.empty<string, Site>(),
  /** By section id. */
  sections: HashMap.empty<string, SiteSection>(),
  /** By section group id. */
  groups: HashMap.empty<string, SiteSectionGroup>(),
  /** By site space id. */
  siteSpaces: HashMap.empty<string, SiteSpace>(),
  /** By share link id. */
  shareLinks: HashMap.empty<string, ShareLink>(),
  /** By redirect id. */
  redirects: HashMap.empty<string, SiteRedirect>(),
  /** Each redirect's id by `sourceKey` (site, draft or live, source): the unique source, found without a scan. */
  redirectSources: HashMap.empty<string, string>()
})
