import { Layer } from "effect"
import { CommentAnswers, CommentsServices } from "./comments/index.js"
import { ContentServices } from "./content/index.js"
import { IdentityServices } from "./identity/index.js"
import { ImportsServices } from "./imports/index.js"
import { InsightsServices } from "./insights/index.js"
import { OrganizationsServices } from "./organizations/index.js"
import { SearchAnswers, SearchServices } from "./search/index.js"
import { SecretsLive } from "./shared/Secrets.js"
import { SitePublications, SiteSpaceLifecycle, SitesServices } from "./sites/index.js"
import { SpacesServices } from "./spaces/index.js"

/**
 * The ports an earlier context declares and a later one answers (counters, content that follows
 * a space, the index that follows content), each answer over those of the contexts after it.
 */
const Answers = Layer.mergeAll(SiteSpaceLifecycle, SitePublications, CommentAnswers).pipe(
  Layer.provideMerge(SearchAnswers)
)

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
