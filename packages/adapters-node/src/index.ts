// The adapters that are neither HTTP nor storage, in the order of the contexts: the guarded fetcher and the parse
// workers, user agents and visitor tokens, SAML certificates, integrations' sealed secrets, and Git's command line.
export {
  type AddressClass,
  classifyAddress,
  FetchGuardLive,
  makeFetchGuard,
  makeWebFetcher,
  type NetworkClass,
  parseNetworkClasses,
  WebFetcherLive,
  type WebFetchOptions
} from "./shared/WebFetch.js"
export { EventLoopTurnsLive } from "./shared/EventLoopTurns.js"
export { DEFAULT_WORKER_POOL, defaultParseWorkers, WorkerPoolLive, type WorkerPoolOptions } from "./shared/WorkerPool.js"
export { parseUserAgent, rememberingParser, UserAgentsLive } from "./insights/UserAgents.js"
export { verifyVisitorToken, VisitorTokensLive } from "./insights/VisitorTokens.js"
export { CertificatesLive } from "./sso/Certificates.js"
export {
  decodeSecretKey,
  ephemeralSecretKey,
  integrationsSecretKey,
  loadOrCreateSecretKey,
  SECRET_KEY_BYTES,
  secretKeyFile
} from "./integrations/SecretKey.js"
export { makeSecretBox, SECRET_KEY_VARIABLE, SecretBoxLive } from "./integrations/SecretBox.js"
export { type GitCliOptions, GitRepositoriesLive, makeGitRepositories } from "./gitsync/GitCli.js"
