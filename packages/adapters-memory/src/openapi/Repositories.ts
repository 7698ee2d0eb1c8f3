import { type Keyset, type OpenAPISpec, OpenAPISpecRepository, OpenAPISpecVersionRepository, specSlugTaken } from "@octavo/domain"
import { Effect, HashMap, Option } from "effect"
import { byCreation, change, layerOver, sortedBy, unique } from "../shared/index.js"
import { OpenAPIState } from "./State.js"

const bySubmission = (spec: OpenAPISpec): Keyset => [spec.submittedAt.getTime(), spec.id]

/** A job a worker may take at `now`: waiting, or in progress under a lease that has ended. */
const takeable = (now: Date) => (spec: OpenAPISpec): boolean =>
  spec.processingState === "pending" ||
  (spec.processingState === "progress" && (spec.leasedUntil === undefined || spec.leasedUntil.getTime() < now.getTime()))

export const MemoryOpenAPISpecRepository = layerOver(OpenAPISpecRepository, OpenAPIState, ({ specs }, store) => {
  const findBySlug = (organizationId: string, slug: string) =>
    specs.find((spec) => spec.organizationId === organizationId && spec.slug === slug)
  return {
    insert: (spec) =>
      specs.insert(
        spec.id,
        spec,
        unique((held) => held.organizationId === spec.organizationId && held.slug === spec.slug, () => specSlugTaken(spec.slug))
      ),
    update: (spec) => specs.replace(spec.id, spec),
    remove: (id) =>
      change(store, OpenAPIState, (state) => ({
        specs: HashMap.remove(state.specs, id),
        versions: HashMap.filter(state.versions, (held) => held.version.specId !== id)
      })),
    findBySlug,
    // Writes to the store take turns: a unit of work holds every spec it reads.
    lockBySlug: findBySlug,
    list: (organizationId, page) => specs.page((spec) => spec.organizationId === organizationId, byCreation, "asc", page),
    claimJob: (claim, now, leasedUntil) =>
      store.write(OpenAPIState, (state) => {
        const [first] = sortedBy([...HashMap.values(state.specs)].filter(takeable(now)), bySubmission)
        if (first === undefined) return [Option.none<OpenAPISpec>(), state] as const
        const claimed: OpenAPISpec = { ...first, processingState: "progress", claim, leasedUntil }
        return [Option.some(claimed), { ...state, specs: HashMap.set(state.specs, claimed.id, claimed) }] as const
      }),
    lockClaimed: (id, claim) =>
      Effect.map(specs.get(id), Option.filter((spec) => spec.processingState === "progress" && spec.claim === claim))
  }
})

export const MemoryOpenAPISpecVersionRepository = layerOver(OpenAPISpecVersionRepository, OpenAPIState, ({ versions }) => ({
  insert: (version, text) => versions.insert(version.id, { version, text }),
  find: (specId, id) =>
    Effect.map(versions.get(id), Option.filterMap((held) => held.version.specId === specId ? Option.some(held.version) : Option.none())),
  text: (id) => Effect.map(versions.get(id), Option.map((held) => held.text)),
  list: (specId, page) =>
    Effect.map(
      versions.page((held) => held.version.specId === specId, (held): Keyset => [held.version.number, held.version.id], "desc", page),
      (found) => ({ ...found, items: found.items.map((held) => held.version) })
    )
}))
