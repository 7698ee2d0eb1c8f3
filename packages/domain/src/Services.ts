import { Layer } from "effect"
import {
  ChangeRequestViewFactsOneByOne,
  CommentsServices,
  CommentViewFactsOneByOne,
  OpenCommentsFact,
  SpaceCommentReadsOneByOne
} from "./comments/index.js"
import { ChangeRequestCountsFact, ContentServices, SpaceChangeRequestReadsOneByOne } from "./content/index.js"
import { IdentityServices } from "./identity/index.js"
import { GitSyncFact, GitSyncServices, RevisionGitReadsOneByOne, RevisionOriginsLive } from "./gitsync/index.js"
import { ImportsServices } from "./imports/index.js"
import { InsightsServices } from "./insights/index.js"
import { IntegrationsServices } from "./integrations/index.js"
import { OpenAPIServices } from "./openapi/index.js"
import { OrganizationsServices } from "./organizations/index.js"
import { ReaderServices } from "./reader/index.js"
import { SearchAnswers, SearchServices } from "./search/index.js"
import { SecretsLive } from "./shared/Secrets.js"
import {
  PublishedPlaceFact,
  SiteReadsOneByOne,
  SiteSpaceLifecycle,
  SitesServices,
  SiteTreeReadsLive,
  SiteTreeRowReadsOneByOne
} from "./sites/index.js"
import { spaceFactRowsOneByOne, spaceFactShows, SpacesServices } from "./spaces/index.js"
import { SsoAnswers, SsoServices } from "./sso/index.js"
import { TranslationsServices } from "./translations/index.js"

/** What later contexts show on views of spaces, each declared in its own folder (spaces/Facts.ts). */
export const spaceFacts = [ChangeRequestCountsFact, OpenCommentsFact, PublishedPlaceFact, GitSyncFact] as const

/**
 * The reads of several contexts' storage that a storage may make in one round trip, as one that cannot answers them:
 * each context's repositories in turn (each layer is in the folder of the context that declares or answers its port).
 */
export const ReadsOneByOne = Layer.mergeAll(
  spaceFactRowsOneByOne(spaceFacts),
  SiteTreeRowReadsOneByOne.pipe(Layer.provide(spaceFactRowsOneByOne(spaceFacts))),
  RevisionGitReadsOneByOne,
  SpaceChangeRequestReadsOneByOne,
  SpaceCommentReadsOneByOne.pipe(Layer.provide(SpaceChangeRequestReadsOneByOne)),
  ChangeRequestViewFactsOneByOne,
  CommentViewFactsOneByOne,
  SiteReadsOneByOne
)

/**
 * The ports an earlier context declares and a later one answers (what views of spaces show, content that follows
 * a space, the index that follows content, a revision's origin), each answer over those of the contexts after it.
 */
const Answers = Layer.mergeAll(
  SiteSpaceLifecycle,
  spaceFactShows(spaceFacts),
  SiteTreeReadsLive.pipe(Layer.provide(spaceFactShows(spaceFacts))),
  RevisionOriginsLive,
  SsoAnswers
).pipe(Layer.provideMerge(SearchAnswers))

/** Every use case of the domain, each context's over those of the contexts before it, over the storage ports. */
export const DomainServices = SitesServices.pipe(
  Layer.provideMerge(CommentsServices),
  Layer.provideMerge(SearchServices),
  Layer.provideMerge(ContentServices),
  Layer.provideMerge(SpacesServices),
  Layer.provideMerge(OrganizationsServices),
  Layer.provideMerge(IdentityServices),
  Layer.provide(Answers),
  Layer.provide(SecretsLive)
)

/** Importing content from elsewhere: over `DomainServices` and an outbound `WebFetcher`. */
export const ImportServices = ImportsServices.pipe(Layer.provide(SecretsLive))

/** Site insights: over `DomainServices` and a `UserAgents` parser (a library's job, outside the domain). */
export const InsightsDomainServices = InsightsServices.pipe(Layer.provide(SecretsLive))

/** SAML providers and subdomains: over `DomainServices` and a `Certificates` reader (a library's job, outside the domain). */
export const SsoDomainServices = SsoServices.pipe(Layer.provide(SecretsLive))

/** Translation settings: over `DomainServices`. */
export const TranslationsDomainServices = TranslationsServices.pipe(Layer.provide(SecretsLive))

/** Integrations: over `DomainServices` and a `SecretBox` that seals their secrets (a library's job, outside the domain). */
export const IntegrationsDomainServices = IntegrationsServices.pipe(Layer.provide(SecretsLive))

/** OpenAPI specs: over `DomainServices`, an outbound `WebFetcher` and its `FetchGuard`. */
export const OpenAPIDomainServices = OpenAPIServices.pipe(Layer.provide(SecretsLive))

/** Git Sync: over `DomainServices`, a `GitRepositories` adapter (Git itself, outside the domain) and this `ServerInstance`. */
// Imports write revisions themselves, so the index that follows content comes with them.
export const GitSyncDomainServices = GitSyncServices.pipe(Layer.provide(SearchAnswers), Layer.provide(SecretsLive))

/** The reader of published sites: over `DomainServices` and `InsightsDomainServices` (it records what visitors read). */
export const ReaderDomainServices = ReaderServices
