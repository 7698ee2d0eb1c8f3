import { Effect, Either, Layer, Option } from "effect"
import { GitRepositories, RemoteRefused, ServerInstance } from "./gitsync/Ports.js"
import { UserAgents, VisitorTokens } from "./insights/Ports.js"
import { SecretBox } from "./integrations/Ports.js"
import { PreconditionFailed } from "./shared/Errors.js"
import { FetchFailed, FetchGuard, WebFetcher } from "./shared/WebFetch.js"
import { Certificates } from "./sso/Ports.js"

/**
 * The ports the domain reaches the world through, besides its storage: fetching (imports, files by URL, OpenAPI specs),
 * Git, a user agent's parts, visitor tokens, SAML certificates, sealing secrets, and this server's name. apps/http
 * gives them from packages/adapters-node.
 */
export type OutsidePorts =
  | WebFetcher
  | FetchGuard
  | UserAgents
  | VisitorTokens
  | Certificates
  | SecretBox
  | GitRepositories
  | ServerInstance

const notGiven = (what: string) => `${what} is not available: this program gave the domain no adapter for it`

/**
 * Every outside port, answering that it was not given: for a program (or a test) that embeds the domain without
 * fetching, Git, SAML or sealed secrets. What needs one fails as the port fails (a refused fetch or remote, a
 * precondition), and nothing reaches the network. Give the adapters you have over it: `Layer.merge(OutsideNotGiven, yours)`.
 */
export const OutsideNotGiven: Layer.Layer<OutsidePorts> = Layer.mergeAll(
  Layer.succeed(WebFetcher, WebFetcher.of({ fetch: (url) => Effect.fail(new FetchFailed({ url, reason: notGiven("fetching") })) })),
  Layer.succeed(FetchGuard, FetchGuard.of({ check: (url) => Effect.fail(new FetchFailed({ url, reason: notGiven("fetching") })) })),
  // Without a parser, nothing is known of a visitor's user agent.
  Layer.succeed(UserAgents, UserAgents.of({ parse: () => ({ browser: "unknown", device: "unknown", os: "unknown", bot: null }) })),
  Layer.succeed(VisitorTokens, VisitorTokens.of({ verify: () => Effect.succeed(Option.none()) })),
  Layer.succeed(Certificates, Certificates.of({ normalize: () => Either.left(notGiven("reading certificates")) })),
  Layer.succeed(
    SecretBox,
    SecretBox.of({
      seal: () => Effect.fail(new PreconditionFailed({ reason: notGiven("sealing secrets") })),
      open: () => Effect.fail(new PreconditionFailed({ reason: notGiven("sealing secrets") }))
    })
  ),
  Layer.succeed(
    GitRepositories,
    GitRepositories.of({
      check: () => Effect.fail(new RemoteRefused({ reason: notGiven("Git") })),
      open: () => Effect.fail(new RemoteRefused({ reason: notGiven("Git") }))
    })
  ),
  Layer.succeed(ServerInstance, "embedded")
)
