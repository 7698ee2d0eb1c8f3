import { Layer } from "effect"
import { ShareLinks } from "./ShareLinkService.js"
import { SiteRedirects } from "./SiteRedirectService.js"
import { SitePublishing } from "./SitePublishingService.js"
import { Sites } from "./SiteService.js"
import { SiteSections } from "./SiteSectionService.js"
import { SiteSpaces } from "./SiteSpaceService.js"
import { PublishedPlaceFact, SiteSpaceLifecycle } from "./ForSpaces.js"
import { SiteReadsOneByOne, SiteTreeReadsLive, SiteTreeRowReadsOneByOne } from "./Reads.js"

export * from "./AdaptiveSchema.js"
export * from "./Condition.js"
export type { DeclaredGroup, DeclaredSection, DeclaredSiteSpace, DeclaredStructure } from "./Declared.js"
export * from "./ForSpaces.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Reads.js"
export * from "./Ports.js"
export * from "./Redirect.js"
export * from "./ShareLinkService.js"
export * from "./Site.js"
export * from "./SitePublishingService.js"
export * from "./SiteRedirectService.js"
export * from "./SiteService.js"
export * from "./SiteSectionService.js"
export * from "./SiteSpaceService.js"
export { inOrganization } from "./SiteWork.js"
export * from "./Structure.js"
export type {
  GroupView,
  PublishedStructure,
  PublishingAuthView,
  SectionView,
  SiteLocation,
  SitePage,
  SiteSpaceView,
  SiteView
} from "./Views.js"

/**
 * The sites context's use cases, one service per API group (the `siteStructure` group's two: site spaces, and
 * sections with their groups): sites, their spaces, their sections, share links, redirects, publishing.
 */
export const SitesServices = Layer.mergeAll(
  Sites.Default,
  SiteSpaces.Default,
  SiteSections.Default,
  ShareLinks.Default,
  SiteRedirects.Default,
  SitePublishing.Default
)
export * from "./Reading.js"

/** The sites context's part of the domain (the list in ../Contexts.ts). */
export const SitesContext = {
  services: SitesServices,
  answers: Layer.merge(SiteSpaceLifecycle, SiteTreeReadsLive),
  spaceFacts: [PublishedPlaceFact],
  readsOneByOne: Layer.merge(SiteTreeRowReadsOneByOne, SiteReadsOneByOne)
}
