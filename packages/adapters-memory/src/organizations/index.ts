import type { OrganizationsPorts } from "@octavo/domain"
import { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import {
  MemoryAcquaintances,
  MemoryInviteRepository,
  MemoryMemberRepository,
  MemoryOrganizationRepository,
  MemoryTeamRepository
} from "./Repositories.js"

export { membershipIn, OrganizationsState } from "./State.js"

/** The organizations context's storage, in memory, with identity's `Acquaintances`, which it answers. */
export const MemoryOrganizations: Layer.Layer<OrganizationsPorts, never, MemoryStore> = Layer.mergeAll(
  MemoryOrganizationRepository,
  MemoryMemberRepository,
  MemoryTeamRepository,
  MemoryInviteRepository,
  MemoryAcquaintances
)
