import { Layer } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { ChangeRequestsApi } from "./ChangeRequestsApi.js"
import { ChangeRequestsLive } from "./ChangeRequestsHandlers.js"
import { ContentApi } from "./ContentApi.js"
import { ContentLive } from "./ContentHandlers.js"

/** Content over HTTP: a space's revisions, pages, files and links, and change requests. */
export const ContentGroups = OctavoBase.add(ContentApi).add(ChangeRequestsApi)
export const ContentHandlers = Layer.mergeAll(ContentLive, ChangeRequestsLive)
export { changeRequestFields } from "./ForSpaces.js"
