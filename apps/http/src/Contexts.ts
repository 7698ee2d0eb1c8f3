import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { mergeAllOf } from "@octavo/domain"
import { CommentsHttp } from "./comments/index.js"
import { ContentHttp } from "./content/index.js"
import { GitSyncHttp } from "./gitsync/index.js"
import { HealthHttp } from "./health/index.js"
import { IdentityHttp } from "./identity/index.js"
import { ImportsHttp } from "./imports/index.js"
import { InsightsHttp } from "./insights/index.js"
import { IntegrationsHttp } from "./integrations/index.js"
import { OpenAPIHttp } from "./openapi/index.js"
import { OrganizationsHttp } from "./organizations/index.js"
import { SearchHttp } from "./search/index.js"
import type { BodyLimit } from "./shared/Contract.js"
import { SitesHttp } from "./sites/index.js"
import type { SpaceFields } from "./spaces/Present.js"
import { SpacesHttp } from "./spaces/index.js"
import { SsoHttp } from "./sso/index.js"
import { TranslationsHttp } from "./translations/index.js"

/**
 * The contexts in the domain's order (packages/domain/src/Services.ts), each its folder's one export: its API groups and their
 * handlers, and what it adds to the server: fields on spaces (`spaceFields`), larger bodies on some routes
 * (`bodyLimits`), work in the background (`jobs`). The reader's routes stand beside the API (Server.ts).
 */
const contexts = [
  HealthHttp,
  IdentityHttp,
  OrganizationsHttp,
  SpacesHttp,
  ContentHttp,
  SearchHttp,
  ImportsHttp,
  CommentsHttp,
  SitesHttp,
  InsightsHttp,
  SsoHttp,
  TranslationsHttp,
  OpenAPIHttp,
  IntegrationsHttp,
  GitSyncHttp
] as const

type Context = (typeof contexts)[number]
type Groups = Context["groups"]

/** The groups of every context's API, each with what its endpoints need. */
export type GroupsOf<A> = A extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer R> ? HttpApiGroup.HttpApiGroup.AddContext<G, R>
  : never
/** The errors any of the APIs may answer. */
export type ErrorsOf<A> = A extends HttpApi.HttpApi<infer _Id, infer _G, infer E, infer _R> ? E : never

/** `base` with every context's groups, in order. */
export const withContextGroups = <Id extends string>(base: HttpApi.HttpApi<Id>): HttpApi.HttpApi<Id, GroupsOf<Groups>, ErrorsOf<Groups>> =>
  contexts.reduce<AddsApis>((api, context) => api.addHttpApi(context.groups), base as unknown as AddsApis) as never

/** An API as the fold over the contexts sees it: one that takes another's groups. */
interface AddsApis {
  readonly addHttpApi: (api: Groups) => AddsApis
}

/** Every context's handlers. */
export const contextHandlers = mergeAllOf<Context["handlers"]>(contexts.map((context) => context.handlers))

/** What the contexts add to spaces on the wire, in order. */
export const contextSpaceFields: ReadonlyArray<SpaceFields> = contexts.flatMap((context) =>
  "spaceFields" in context ? context.spaceFields : []
)

/** The routes whose bodies may be larger than the server's default, with their limits. */
export const contextBodyLimits: ReadonlyArray<BodyLimit> = contexts.flatMap((context) => "bodyLimits" in context ? context.bodyLimits : [])

type Job = Context extends infer C ? C extends { readonly jobs: ReadonlyArray<infer J> } ? J : never : never

const jobs = contexts.flatMap((context): ReadonlyArray<Job> => ("jobs" in context ? context.jobs : []))

/** The contexts' work in the background, each started with the server and stopped with it. */
export const contextJobs = mergeAllOf(jobs)
