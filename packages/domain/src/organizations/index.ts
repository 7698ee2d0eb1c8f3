import { Layer } from "effect"
import { Invites } from "./InviteService.js"
import { Members } from "./MemberService.js"
import { Organizations } from "./OrganizationService.js"
import { TeamMembers } from "./TeamMemberService.js"
import { Teams } from "./TeamService.js"

export * from "./Access.js"
export * from "./InviteService.js"
export * from "./Lists.js"
export * from "./MemberService.js"
export * from "./Organization.js"
export * from "./OrganizationService.js"
export * from "./Policy.js"
export * from "./Ports.js"
export * from "./TeamMemberService.js"
export * from "./TeamService.js"
export * from "./TeamViews.js"

/** The organizations context's use cases: organizations, members, teams, teams' members, invites. */
export const OrganizationsServices = Layer.mergeAll(Organizations.Default, Teams.Default, TeamMembers.Default, Invites.Default).pipe(
  Layer.provideMerge(Members.Default)
)

/** The organizations context's part of the domain (the list in ../Contexts.ts). */
export const OrganizationsContext = { services: OrganizationsServices }
