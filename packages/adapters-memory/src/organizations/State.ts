import type { Invite, Member, Organization, Team, TeamMembership } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the organizations context keeps in memory. */
export const OrganizationsState = slice("@octavo/adapters-memory/organizations", {
  organizations: HashMap.empty<string, Organization>(),
  /** Keyed by `pairKey(organizationId, userId)`. */
  members: HashMap.empty<string, Member>(),
  teams: HashMap.empty<string, Team>(),
  /** Keyed by `pairKey(teamId, userId)`. */
  teamMemberships: HashMap.empty<string, TeamMembership>(),
  invites: HashMap.empty<string, Invite>()
})
