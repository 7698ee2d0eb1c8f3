import { Layer } from "effect"
import { CommentsContext } from "./comments/index.js"
import { ContentContext } from "./content/index.js"
import { GitSyncContext } from "./gitsync/index.js"
import { IdentityContext } from "./identity/index.js"
import { ImportsContext } from "./imports/index.js"
import { InsightsContext } from "./insights/index.js"
import { IntegrationsContext } from "./integrations/index.js"
import { OpenAPIContext } from "./openapi/index.js"
import { OrganizationsContext } from "./organizations/index.js"
import { ReaderContext } from "./reader/index.js"
import { SearchContext } from "./search/index.js"
import { stackInOrder } from "./shared/Layers.js"
import { SharedContext } from "./shared/index.js"
import { SitesContext } from "./sites/index.js"
import { spaceFactRowsOneByOne, spaceFactShows, SpacesContext } from "./spaces/index.js"
import { SsoContext } from "./sso/index.js"
import { TranslationsContext } from "./translations/index.js"

/**
 * The contexts in their order, each its folder's one export (the lint reads their order from this list): its use cases
 * (`services`), the ports of earlier contexts it answers (`answers`), what it shows on views of spaces
 * (`spaceFacts`), and the reads of several contexts' storage it declares or answers, over the repositories one read
 * after another (`readsOneByOne`).
 */
const contexts = [
  SharedContext,
  IdentityContext,
  OrganizationsContext,
  SpacesContext,
  ContentContext,
  SearchContext,
  ImportsContext,
  CommentsContext,
  SitesContext,
  InsightsContext,
  SsoContext,
  TranslationsContext,
  OpenAPIContext,
  IntegrationsContext,
  GitSyncContext,
  ReaderContext
] as const

type Context = (typeof contexts)[number]
/** The part `K` of the contexts that give one. */
type PartOf<C, K extends string> = C extends { readonly [P in K]: infer Part } ? Part : never

/** The parts `key` of the contexts that give one, in the contexts' order. */
const partsOf = <K extends "answers" | "readsOneByOne" | "spaceFacts">(key: K): Array<PartOf<Context, K>> =>
  contexts.flatMap((context) => (key in context ? [(context as Record<K, PartOf<Context, K>>)[key]] : []))

/** What later contexts show on views of spaces, each declared in its own folder (spaces/Facts.ts). */
export const spaceFacts = partsOf("spaceFacts").flat()

/**
 * The reads of several contexts' storage that a storage may make in one round trip, as one that cannot answers them:
 * each context's repositories in turn. The memory storage is made with them; the contract suite checks PostgreSQL's
 * against them.
 */
export const ReadsOneByOne = Layer.mergeAll(
  spaceFactRowsOneByOne(spaceFacts),
  stackInOrder(partsOf("readsOneByOne")).pipe(Layer.provide(spaceFactRowsOneByOne(spaceFacts)))
)

/**
 * The ports an earlier context declares and a later one answers, over the storage (what views of spaces show, what a
 * space's coming and going does, the index that follows content, a revision's origin), each over those before it.
 */
const Answers = stackInOrder(partsOf("answers")).pipe(Layer.provideMerge(spaceFactShows(spaceFacts)))

/**
 * Every use case of the domain, each context's over those of the contexts before it, over the storage ports and the
 * outside ports (`OutsidePorts`: fetching, Git, parsing user agents, certificates, sealing secrets).
 */
export const DomainServices = stackInOrder(contexts.map((context) => context.services)).pipe(Layer.provide(Answers))
