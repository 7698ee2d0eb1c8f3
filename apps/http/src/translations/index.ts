import { OctavoBase } from "../shared/Contract.js"
import { TranslationsApi } from "./TranslationsApi.js"
import { TranslationsLive } from "./TranslationsHandlers.js"

/** Translation settings over HTTP. */
export const TranslationsGroups = OctavoBase.add(TranslationsApi)
export const TranslationsHandlers = TranslationsLive

/** The translations context's part of the HTTP API (the list in ../Contexts.ts). */
export const TranslationsHttp = {
  groups: TranslationsGroups,
  handlers: TranslationsHandlers
}
