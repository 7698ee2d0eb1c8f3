import { Layer } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { ChangeRequestsApi } from "./ChangeRequestsApi.js"
import { ChangeRequestsLive } from "./ChangeRequestsHandlers.js"
import { ContentApi } from "./ContentApi.js"
import { ContentLive } from "./ContentHandlers.js"
import { PageHeadsLive } from "./Present.js"
import { changeRequestFields } from "./ForSpaces.js"

/** Content over HTTP: a space's revisions, pages, files and links, and change requests. */
export const ContentGroups = OctavoBase.add(ContentApi).add(ChangeRequestsApi)
/** Both groups share the page encodings they keep (`PageHeads`). */
export const ContentHandlers = Layer.mergeAll(ContentLive, ChangeRequestsLive).pipe(Layer.provide(PageHeadsLive))

/** The content context's part of the HTTP API (the list in ../Contexts.ts). */
export const ContentHttp = {
  groups: ContentGroups,
  handlers: ContentHandlers,
  spaceFields: [changeRequestFields]
}
