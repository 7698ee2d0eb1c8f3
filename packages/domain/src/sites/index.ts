import { Sites } from "./SiteService.js"

export * from "./AdaptiveSchema.js"
export * from "./Condition.js"
export * from "./ForSpaces.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Reads.js"
export * from "./Ports.js"
export * from "./Site.js"
export * from "./SiteService.js"
export * from "./Structure.js"

/** The sites context's use cases: sites, their structure, share links, adaptive schema, publishing. */
export const SitesServices = Sites.Default
export * from "./Reading.js"
