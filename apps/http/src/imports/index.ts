import { OctavoBase } from "../shared/Contract.js"
import { ImportApi } from "./ImportApi.js"
import { ImportLive } from "./ImportHandlers.js"

/** Imports over HTTP: a website's pages into a space or a change request. */
export const ImportsGroups = OctavoBase.add(ImportApi)
export const ImportsHandlers = ImportLive

/** The imports context's part of the HTTP API (the list in ../Contexts.ts). */
export const ImportsHttp = {
  groups: ImportsGroups,
  handlers: ImportsHandlers
}
