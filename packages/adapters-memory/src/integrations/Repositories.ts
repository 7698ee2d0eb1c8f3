import { Conflict, conflicts, domainCovers, InstallationRepository, type Integration, IntegrationRepository } from "@octavo/domain"
import { Effect, HashMap } from "effect"
import { byCreation, change, containsFolded, layerOver, pairKey, unique } from "../shared/index.js"
import { IntegrationsState } from "./State.js"

const keyOf = (name: string) => name.toLowerCase()

const byName = (integration: Integration) => [integration.name, integration.name] as const

export const MemoryIntegrationRepository = layerOver(IntegrationRepository, IntegrationsState, (
  { integrations, versions },
  store
) => ({
  insert: (integration) =>
    integrations.insert(
      keyOf(integration.name),
      integration,
      unique(
        (held) => keyOf(held.name) === keyOf(integration.name),
        () => new Conflict({ reason: `The integration name ${integration.name} is taken` })
      )
    ),
  update: (integration) =>
    integrations.modify(keyOf(integration.name), (held) => ({
      ...integration,
      name: held.name,
      ownerId: held.ownerId,
      createdAt: held.createdAt
    })),
  remove: (name) =>
    change(store, IntegrationsState, (state) => {
      const held = HashMap.get(state.integrations, keyOf(name))
      const stored = held._tag === "Some" ? held.value.name : undefined
      return {
        integrations: HashMap.remove(state.integrations, keyOf(name)),
        versions: HashMap.filter(state.versions, (v) => keyOf(v.name) !== keyOf(name)),
        installations: HashMap.filter(state.installations, (i) => i.integrationName !== stored)
      }
    }),
  findByName: (name) => integrations.get(keyOf(name)),
  // The store's writes are serialized, and a unit of work runs alone: nothing to lock.
  lock: () => Effect.void,
  list: (filter, page) =>
    integrations.page(
      (i) =>
        (i.visibility === "public" || filter.visibleTo.includes(i.ownerId)) &&
        (filter.search === undefined || containsFolded(i.name, filter.search) || containsFolded(i.title, filter.search)) &&
        (filter.category === undefined || i.categories.includes(filter.category)) &&
        (filter.blockDomain === undefined || i.blockDomains.some((host) => domainCovers(filter.blockDomain!, host))) &&
        (filter.blocks === undefined || (i.blocks.length > 0) === filter.blocks) &&
        (filter.contentSources === undefined || (i.contentSources.length > 0) === filter.contentSources) &&
        (filter.owner === undefined || i.ownerId === filter.owner),
      byName,
      "asc",
      page
    ),
  addVersion: (version) => versions.insert(pairKey(keyOf(version.name), String(version.version)), version),
  versions: (name) =>
    Effect.map(
      versions.filter((v) => keyOf(v.name) === keyOf(name)),
      (found) => found.sort((a, b) => a.version - b.version)
    )
}))

export const MemoryInstallationRepository = layerOver(InstallationRepository, IntegrationsState, ({ installations }) => ({
  insert: (installation) =>
    installations.insert(
      installation.id,
      installation,
      (map) =>
        HashMap.has(map, installation.id)
          ? conflicts.idTaken("installation", installation.id)
          : HashMap.some(
              map,
              (held) => held.integrationName === installation.integrationName && held.organizationId === installation.organizationId
            )
          ? new Conflict({ reason: `The integration ${installation.integrationName} is installed in this organization already` })
          : undefined
    ),
  update: (installation) =>
    installations.modify(installation.id, (held) => ({
      ...held,
      externalIds: installation.externalIds,
      configuration: installation.configuration,
      spaceSelection: installation.spaceSelection,
      siteSelection: installation.siteSelection,
      updatedAt: installation.updatedAt
    })),
  remove: installations.remove,
  findById: installations.get,
  list: (integrationName, filter, page) =>
    installations.page(
      (i) =>
        i.integrationName === integrationName &&
        (filter.organizations === undefined || filter.organizations.includes(i.organizationId)) &&
        (filter.externalId === undefined || i.externalIds.includes(filter.externalId)),
      byCreation,
      "asc",
      page
    )
}))
