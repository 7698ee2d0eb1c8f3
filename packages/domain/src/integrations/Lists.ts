import { listKey, type ListKey } from "../shared/Pagination.js"
import type { IntegrationListQuery } from "./Integration.js"

/** Integrations by name, with the filters. */
export const integrationListKey = (query: IntegrationListQuery): ListKey =>
  listKey(
    "integrations",
    "string",
    query.search,
    query.category,
    query.blockDomain?.toLowerCase(),
    query.blocks,
    query.contentSources,
    query.owner
  )

/** An integration's installations by (createdAt, id), with the `externalId` filter. */
export const installationListKey = (integrationName: string, externalId: string | undefined): ListKey =>
  listKey("integration-installations", "number", integrationName.toLowerCase(), externalId)
