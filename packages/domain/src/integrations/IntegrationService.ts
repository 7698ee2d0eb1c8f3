import { Effect, Option } from "effect"
import { BlobStore } from "../content/Ports.js"
import { NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { IntegrationListQuery } from "./Integration.js"
import { makeIntegrationWork } from "./IntegrationWork.js"
import { IntegrationRepository } from "./Ports.js"

/**
 * Integrations (conventions-2.md §7 and decision 8), the API's reads of them: reading and listing
 * by visibility, and their images. Publishing is `IntegrationPublishing`'s, installations are
 * `IntegrationInstallations`'.
 */
export class Integrations extends Effect.Service<Integrations>()("@octavo/domain/Integrations", {
  effect: Effect.gen(function*() {
    const integrations = yield* IntegrationRepository
    const blobs = yield* BlobStore
    const { callerOf, viewOf, viewsOf, visible } = yield* makeIntegrationWork

    const get = (name: string) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        return yield* viewOf(yield* visible(name, caller), caller)
      })

    const list = (query: IntegrationListQuery, page: PageRequest) =>
      Effect.gen(function*() {
        const valid = yield* validate(IntegrationListQuery)(query)
        const caller = yield* callerOf
        const found = yield* integrations.list({
          visibleTo: caller.organizations.map((o) => o.id),
          search: valid.search,
          category: valid.category,
          blockDomain: valid.blockDomain?.toLowerCase(),
          blocks: valid.blocks,
          contentSources: valid.contentSources,
          owner: valid.owner as OrganizationId | undefined
        }, page)
        return { ...found, items: yield* viewsOf(found.items, caller) }
      })

    /** An image of a visible integration, by its key: its icon or a preview. */
    const asset = (name: string, key: string) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        const found = [...(integration.icon === undefined ? [] : [integration.icon]), ...integration.previewImages].find((a) =>
          a.key === key
        )
        const bytes = found === undefined ? Option.none() : yield* blobs.get(found.key)
        if (found === undefined || Option.isNone(bytes)) return yield* new NotFound({ entity: "asset", id: key })
        return { contentType: found.contentType, bytes: bytes.value }
      })

    return { get, list, asset } as const
  })
}) {}
