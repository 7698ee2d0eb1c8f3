import { Layer } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { ShareLinksApi } from "./ShareLinksApi.js"
import { SitesApi } from "./SitesApi.js"
import { ShareLinksLive, SitesLive, SiteStructureLive } from "./SitesHandlers.js"
import { SiteStructureApi } from "./SiteStructureApi.js"
import { publishedFields } from "./ForSpaces.js"

/** Sites over HTTP: sites, their structure of site spaces, sections and groups, and their share links. */
export const SitesGroups = OctavoBase.add(SitesApi).add(SiteStructureApi).add(ShareLinksApi)
export const SitesHandlers = Layer.mergeAll(SitesLive, SiteStructureLive, ShareLinksLive)

/** The sites context's part of the HTTP API (the list in ../Contexts.ts). */
export const SitesHttp = {
  groups: SitesGroups,
  handlers: SitesHandlers,
  spaceFields: [publishedFields]
}
