import { Context, Effect, type Option } from "effect"
import type { Acquaintances } from "../identity/Ports.js"
import type { User } from "../identity/User.js"
import type { Conflict } from "../shared/Errors.js"
import type { InviteId, OrganizationId, TeamId, UserId } from "../shared/Ids.js"
import type { Order, Page, PageRequest } from "../shared/Pagination.js"
import type { MemberRole, Role } from "../shared/Role.js"
import type { Invite, Member, MemberSort, Organization, Team, TeamMembership } from "./Organization.js"

export class OrganizationRepository extends Context.Tag("@octavo/domain/OrganizationRepository")<OrganizationRepository, {
  /** Fails with Conflict when the hostname is taken. */
  readonly insert: (organization: Organization) => Effect.Effect<void, Conflict>
  /** Fails with Conflict when the hostname is taken. */
  readonly update: (organization: Organization) => Effect.Effect<void, Conflict>
  readonly findById: (id: OrganizationId) => Effect.Effect<Option.Option<Organization>>
  /** The organization whose hostname (its subdomain) this is. */
  readonly findByHostname: (hostname: string) => Effect.Effect<Option.Option<Organization>>
  /** Organizations the user is a member of, by (createdAt, id) ascending. */
  readonly listForUser: (userId: UserId, page: PageRequest) => Effect.Effect<Page<Organization>>
  /** Organizations whose emailDomains include the (lower-cased) domain, by (createdAt, id). */
  readonly findByEmailDomain: (domain: string) => Effect.Effect<ReadonlyArray<Organization>>
}>() {}

export interface MemberFilter {
  /** Members with this role; null lists the guests. */
  readonly role?: MemberRole | undefined
  /** Case-insensitive substring of the user's display name or email. */
  readonly search?: string | undefined
  /** Sorting by lastSeenAt lists only members that have been seen. */
  readonly sort: MemberSort
  readonly order: Order
}

/** A member with its user and the number of teams it is in, as lists show them. */
export interface MemberWithUser {
  readonly member: Member
  readonly user: User
  readonly teams: number
}

export class MemberRepository extends Context.Tag("@octavo/domain/MemberRepository")<MemberRepository, {
  /** Fails with Conflict when the user is a member already. */
  readonly insert: (member: Member) => Effect.Effect<void, Conflict>
  readonly update: (member: Member) => Effect.Effect<void>
  /** Removes the member and its team memberships in the organization. */
  readonly delete: (organizationId: OrganizationId, userId: UserId) => Effect.Effect<void>
  readonly find: (organizationId: OrganizationId, userId: UserId) => Effect.Effect<Option.Option<Member>>
  /** The member record with its organization, in one read: what every access check starts from. */
  readonly findWithOrganization: (
    organizationId: OrganizationId,
    userId: UserId
  ) => Effect.Effect<Option.Option<{ readonly member: Member; readonly organization: Organization }>>
  /** Keyset over (joinedAt or lastSeenAt in epoch ms, userId). */
  readonly list: (
    organizationId: OrganizationId,
    filter: MemberFilter,
    page: PageRequest
  ) => Effect.Effect<Page<MemberWithUser>>
  /** Members of one organization with their users, in no particular order; unknown ids are left out. */
  readonly findMany: (organizationId: OrganizationId, userIds: ReadonlyArray<UserId>) => Effect.Effect<ReadonlyArray<MemberWithUser>>
  /** A user's member records in the given organizations, in no particular order. */
  readonly membershipsOf: (userId: UserId, organizationIds: ReadonlyArray<OrganizationId>) => Effect.Effect<ReadonlyArray<Member>>
  /**
   * How many members have the role. Inside a unit of work on a SQL store it also locks those
   * members until the unit ends, so two concurrent demotions cannot both see a second admin.
   */
  readonly countWithRole: (organizationId: OrganizationId, role: Role) => Effect.Effect<number>
}>() {}

export interface TeamFilter {
  readonly title?: string | undefined
  /** Only teams where this user has the team role `owner`. */
  readonly ownedBy?: UserId | undefined
}

export interface TeamWithCount {
  readonly team: Team
  readonly members: number
}

export class TeamRepository extends Context.Tag("@octavo/domain/TeamRepository")<TeamRepository, {
  readonly insert: (team: Team) => Effect.Effect<void>
  readonly update: (team: Team) => Effect.Effect<void>
  /** Removes the team and its memberships. */
  readonly delete: (id: TeamId) => Effect.Effect<void>
  readonly findById: (id: TeamId) => Effect.Effect<Option.Option<TeamWithCount>>
  /** Keyset over (createdAt in epoch ms, id) ascending; `title` matches case-insensitively. */
  readonly list: (organizationId: OrganizationId, filter: TeamFilter, page: PageRequest) => Effect.Effect<Page<TeamWithCount>>
  /** Whether the user has the team role `owner` in one of the organization's teams. */
  readonly ownsAny: (organizationId: OrganizationId, userId: UserId) => Effect.Effect<boolean>
  readonly findMembership: (teamId: TeamId, userId: UserId) => Effect.Effect<Option.Option<TeamMembership>>
  /** Adds the membership or replaces its role. */
  readonly upsertMembership: (membership: TeamMembership) => Effect.Effect<void>
  readonly deleteMembership: (teamId: TeamId, userId: UserId) => Effect.Effect<void>
  /** Keyset over (addedAt in epoch ms, userId) ascending. */
  readonly listMemberships: (teamId: TeamId, page: PageRequest) => Effect.Effect<Page<TeamMembership>>
  /** A member's teams, keyset over (team createdAt in epoch ms, team id) ascending. */
  readonly listForUser: (
    organizationId: OrganizationId,
    userId: UserId,
    filter: { readonly title?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<Page<{ readonly team: TeamWithCount; readonly membership: TeamMembership }>>
  readonly countForUser: (organizationId: OrganizationId, userId: UserId) => Effect.Effect<number>
}>() {}

export class InviteRepository extends Context.Tag("@octavo/domain/InviteRepository")<InviteRepository, {
  readonly insert: (invite: Invite) => Effect.Effect<void>
  readonly update: (invite: Invite) => Effect.Effect<void>
  readonly delete: (id: InviteId) => Effect.Effect<void>
  readonly findById: (id: InviteId) => Effect.Effect<Option.Option<Invite>>
  /** Keyset over (createdAt in epoch ms, id) ascending. */
  readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<Invite>>
}>() {}

/**
 * Whether an organization has an active SAML provider, which enforcing SSO needs (conventions-2.md
 * §4). The sso context answers it; until then no organization has one. Inside a unit of work the
 * answer holds until the unit ends: no provider leaves meanwhile.
 */
export class SsoProviders extends Context.Reference<SsoProviders>()("@octavo/domain/SsoProviders", {
  defaultValue: (): { readonly hasActive: (organizationId: OrganizationId) => Effect.Effect<boolean> } => ({
    hasActive: () => Effect.succeed(false)
  })
}) {}

/** The storage the organizations context owns, with identity's `Acquaintances`, which it answers. */
export type OrganizationsPorts = OrganizationRepository | MemberRepository | TeamRepository | InviteRepository | Acquaintances
