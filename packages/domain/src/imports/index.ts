import { Imports } from "./ImportService.js"

export * from "./ImportService.js"

/** Importing content from elsewhere, over content's use cases and an outbound `WebFetcher`. */
export const ImportsServices = Imports.Default

/** The imports context's part of the domain (the list in ../Contexts.ts). */
export const ImportsContext = { services: ImportsServices }
