/** Published sites in a browser, beside the JSON API. */
export { ReaderRoutes } from "./ReaderRoutes.js"
export { AppRoutes, SessionKey, sessionKeyOf } from "./AppRoutes.js"
