import type { OrganizationId } from "../shared/Ids.js"
import { listKey, type ListKey } from "../shared/Pagination.js"

/** An organization's SAML providers, by (createdAt, id). */
export const samlProviderListKey = (organizationId: OrganizationId): ListKey => listKey("saml-providers", "number", organizationId)
