import { Layer } from "effect"
import { ShareLinks } from "./ShareLinkService.js"
import { SitePublishing } from "./SitePublishingService.js"
import { Sites } from "./SiteService.js"
import { SiteStructure } from "./SiteStructureService.js"
import { PublishedPlaceFact, SiteSpaceLifecycle } from "./ForSpaces.js"
import { SiteReadsOneByOne, SiteTreeReadsLive, SiteTreeRowReadsOneByOne } from "./Reads.js"

export * from "./AdaptiveSchema.js"
export * from "./Condition.js"
export * from "./ForSpaces.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Reads.js"
export * from "./Ports.js"
export * from "./ShareLinkService.js"
export * from "./Site.js"
export * from "./SitePublishingService.js"
export * from "./SiteService.js"
export * from "./SiteStructureService.js"
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

/** The sites context's use cases, one service per API group: sites, their structure, share links, publishing. */
export const SitesServices = Layer.mergeAll(Sites.Default, SiteStructure.Default, ShareLinks.Default, SitePublishing.Default)
export * from "./Reading.js"

/** The sites context's part of the domain (the list in ../Contexts.ts). */
export const SitesContext = {
  services: SitesServices,
  answers: Layer.merge(SiteSpaceLifecycle, SiteTreeReadsLive),
  spaceFacts: [PublishedPlaceFact],
  readsOneByOne: Layer.merge(SiteTreeRowReadsOneByOne, SiteReadsOneByOne)
}
