import type { Invite, Member, Organization, Team, TeamMembership } from "@octavo/domain"
import { HashMap, Option } from "effect"
import { pairKey, slice, type Snapshot } from "../shared/index.js"

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

/** A user's member record in an organization with the organization, as the snapshot holds them. */
export const membershipIn = (state: Snapshot, organizationId: string, userId: string) => {
  const { members, organizations } = state.get(OrganizationsState)
  return Option.flatMap(
    HashMap.get(members, pairKey(organizationId, userId)),
    (member) => Option.map(HashMap.get(organizations, organizationId), (organization) => ({ member, organization }))
  )
}
