import { Layer } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { ShareLinksApi } from "./ShareLinksApi.js"
import { SiteRedirectsApi } from "./SiteRedirectsApi.js"
import { SitesApi } from "./SitesApi.js"
import { ShareLinksLive, SiteRedirectsLive, SitesLive, SiteStructureLive } from "./SitesHandlers.js"
import { SiteStructureApi } from "./SiteStructureApi.js"
import { publishedFields } from "./ForSpaces.js"

/** Sites over HTTP: sites, their structure of site spaces, sections and groups, their share links and redirects. */
export const SitesGroups = OctavoBase.add(SitesApi).add(SiteStructureApi).add(ShareLinksApi).add(SiteRedirectsApi)
export const SitesHandlers = Layer.mergeAll(SitesLive, SiteStructureLive, ShareLinksLive, SiteRedirectsLive)

/** The sites context's part of the HTTP API (the list in ../Contexts.ts). */
export const SitesHttp = {
  groups: SitesGroups,
  handlers: SitesHandlers,
  spaceFields: [publishedFields]
}
