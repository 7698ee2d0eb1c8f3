import type { OrganizationId, TeamId, UserId } from "../shared/Ids.js"
import { listKey, type ListKey } from "../shared/Pagination.js"
import type { MemberFilter } from "./Ports.js"

// The keys of the organizations' lists: each names what chooses its items and says how its keyset sorts.

/** The caller's organizations, by creation time. */
export const organizationListKey = (): ListKey => listKey("organizations", "number")

/** An organization's members, by the filter's sort (joined or last seen time, or name), with the filters. */
export const memberListKey = (organizationId: OrganizationId, filter: MemberFilter): ListKey =>
  listKey(
    "members",
    filter.sort === "name" ? "string" : "number",
    organizationId,
    filter.sort,
    filter.order,
    filter.role === null ? "guest" : filter.role,
    filter.search
  )

/** The teams a member belongs to, by the teams' creation time. */
export const memberTeamsListKey = (organizationId: OrganizationId, userId: UserId, title: string | undefined): ListKey =>
  listKey("member-teams", "number", organizationId, userId, title)

/** An organization's teams, by creation time. */
export const teamListKey = (
  organizationId: OrganizationId,
  filter: { readonly owner?: string | undefined; readonly title?: string | undefined }
): ListKey => listKey("teams", "number", organizationId, filter.owner, filter.title)

/** A team's members, by the time they were added. */
export const teamMemberListKey = (teamId: TeamId): ListKey => listKey("team-members", "number", teamId)

/** An organization's link invites, by creation time. */
export const inviteListKey = (organizationId: OrganizationId): ListKey => listKey("invites", "number", organizationId)
