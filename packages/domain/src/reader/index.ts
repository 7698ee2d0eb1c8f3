export * from "./Reading.js"
export * from "./ReaderService.js"

import { Reader } from "./ReaderService.js"

/** The reader context's use cases: published sites as their visitors read them. Needs what insights needs. */
export const ReaderServices = Reader.Default

/** The reader context's part of the domain (the list in ../Contexts.ts). */
export const ReaderContext = { services: ReaderServices }
