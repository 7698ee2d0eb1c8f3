import { SamlProviderRepository } from "@octavo/domain"
import { Effect } from "effect"
import { byCreation, byId, layerOver, sortedBy } from "../shared/index.js"
import { SsoState } from "./State.js"

export const MemorySamlProviderRepository = layerOver(SamlProviderRepository, SsoState, ({ providers }) => {
  const { delete: remove, findById, insert, update } = byId(providers)
  return {
    insert,
    update,
    remove,
    findById,
    list: (organizationId, page) => providers.page((p) => p.organizationId === organizationId, byCreation, "asc", page),
    active: (organizationId) =>
      Effect.map(
        providers.filter((p) => p.organizationId === organizationId && p.status === "active"),
        (found) => sortedBy(found, byCreation)
      ),
    // The store runs one unit of work at a time.
    lockOrganization: () => Effect.void
  }
})
