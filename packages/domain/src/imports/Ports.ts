// Imports fetch through the shared outbound port, which content uses too (files inserted by URL).
export { type FetchedResource, FetchFailed, WebFetcher } from "../shared/WebFetch.js"
