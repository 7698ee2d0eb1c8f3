import {
  Acquaintances,
  conflicts,
  InviteRepository,
  type Member,
  MemberRepository,
  type MemberWithUser,
  type Organization,
  OrganizationRepository,
  pageInMemory,
  type Team,
  type TeamMembership,
  TeamRepository,
  type TeamWithCount
} from "@octavo/domain"
import { Effect, HashMap, Option } from "effect"
import { IdentityState } from "../identity/index.js"
import { byCreation, byId, change, containsFolded, inOrganization, layerOver, pairKey, type Snapshot, sortedBy } from "../shared/index.js"
import { membershipIn, OrganizationsState } from "./State.js"

/** A member's team memberships in its organization. */
const membershipOf = (organizationId: string, userId: string) => (m: TeamMembership) =>
  m.organizationId === organizationId && m.userId === userId

/** A hostname belongs to one organization at most. */
const hostnameConflict = (held: HashMap.HashMap<string, Organization>, organization: Organization) => {
  const hostname = organization.hostname
  return hostname !== undefined && HashMap.some(held, (o) => o.id !== organization.id && o.hostname === hostname)
    ? conflicts.hostnameTaken(hostname)
    : undefined
}

export const MemoryOrganizationRepository = layerOver(
  OrganizationRepository,
  OrganizationsState,
  ({ members, organizations }, store) => ({
    insert: (organization) =>
      organizations.insert(
        organization.id,
        organization,
        (held) =>
          HashMap.has(held, organization.id) ? conflicts.idTaken("organization", organization.id) : hostnameConflict(held, organization)
      ),
    update: (organization) => organizations.replace(organization.id, organization, (held) => hostnameConflict(held, organization)),
    findById: organizations.get,
    findByHostname: (hostname) => organizations.find((o) => o.hostname === hostname),
    listForUser: (userId, page) =>
      store.read((state) => {
        const mine = organizations.valuesIn(state).filter((o) => HashMap.has(members.in(state), pairKey(o.id, userId)))
        return pageInMemory(mine, byCreation, "asc", page)
      }),
    findByEmailDomain: (domain) =>
      Effect.map(organizations.filter((o) => o.emailDomains.includes(domain)), (found) => sortedBy(found, byCreation))
  })
)

export const MemoryMemberRepository = layerOver(
  MemberRepository,
  OrganizationsState,
  ({ members, teamMemberships }, store) => {
    const withUser = (state: Snapshot, member: Member): Option.Option<MemberWithUser> =>
      Option.map(HashMap.get(state.get(IdentityState).users, member.userId), (user) => ({
        member,
        user,
        teams: HashMap.size(HashMap.filter(teamMemberships.in(state), membershipOf(member.organizationId, member.userId)))
      }))
    return {
      insert: (member) => {
        const key = pairKey(member.organizationId, member.userId)
        return members.insert(key, member, (held) => HashMap.has(held, key) ? conflicts.alreadyMember() : undefined)
      },
      update: (member) => members.replace(pairKey(member.organizationId, member.userId), member),
      delete: (organizationId, userId) =>
        change(store, OrganizationsState, (s) => ({
          ...s,
          members: HashMap.remove(s.members, pairKey(organizationId, userId)),
          teamMemberships: HashMap.filter(s.teamMemberships, (m) => !membershipOf(organizationId, userId)(m))
        })),
      find: (organizationId, userId) => members.get(pairKey(organizationId, userId)),
      findWithOrganization: (organizationId, userId) => store.read((state) => membershipIn(state, organizationId, userId)),
      list: (organizationId, filter, page) =>
        store.read((state) => {
          const search = filter.search
          const rows = members.valuesIn(state).flatMap((member) => {
            if (member.organizationId !== organizationId) return []
            if (filter.role !== undefined && member.role !== filter.role) return []
            if (filter.sort === "lastSeenAt" && member.lastSeenAt === undefined) return []
            return Option.toArray(withUser(state, member)).filter(({ user }) =>
              search === undefined || containsFolded(user.displayName, search) || containsFolded(user.email, search)
            )
          })
          return pageInMemory(
            rows,
            ({ member, user }) =>
              filter.sort === "name"
                ? [user.displayName, member.userId]
                : [(filter.sort === "lastSeenAt" ? member.lastSeenAt ?? member.joinedAt : member.joinedAt).getTime(), member.userId],
            filter.order,
            page
          )
        }),
      findMany: (organizationId, userIds) =>
        store.read((state) =>
          userIds.flatMap((userId) =>
            Option.toArray(Option.flatMap(HashMap.get(members.in(state), pairKey(organizationId, userId)), (m) => withUser(state, m)))
          )
        ),
      membershipsOf: (userId, organizationIds) => members.getMany(organizationIds.map((id) => pairKey(id, userId))),
      countWithRole: (organizationId, role) => members.count((m) => m.organizationId === organizationId && m.role === role)
    }
  }
)

export const MemoryAcquaintances = layerOver(Acquaintances, OrganizationsState, ({ members }, store) => ({
  shareAnOrganization: (a, b) =>
    store.read((state) => {
      const held = members.in(state)
      return HashMap.some(held, (m) => m.userId === a && HashMap.has(held, pairKey(m.organizationId, b)))
    })
}))

export const MemoryTeamRepository = layerOver(TeamRepository, OrganizationsState, ({ teamMemberships, teams }, store) => {
  const withCount = (state: Snapshot, team: Team): TeamWithCount => ({
    team,
    members: HashMap.size(HashMap.filter(teamMemberships.in(state), (m) => m.teamId === team.id))
  })
  const teamKeyset = ({ team }: TeamWithCount) => byCreation(team)
  /** Whether the team has the user in the team role `owner`. */
  const ownsTeam = (state: Snapshot, teamId: string, userId: string) =>
    Option.exists(HashMap.get(teamMemberships.in(state), pairKey(teamId, userId)), (m) => m.role === "owner")
  return {
    ...byId(teams),
    delete: (id) =>
      change(store, OrganizationsState, (s) => ({
        ...s,
        teams: HashMap.remove(s.teams, id),
        teamMemberships: HashMap.filter(s.teamMemberships, (m) => m.teamId !== id)
      })),
    findById: (id) => store.read((state) => Option.map(HashMap.get(teams.in(state), id), (team) => withCount(state, team))),
    list: (organizationId, filter, page) =>
      store.read((state) => {
        const title = filter.title
        const ownedBy = filter.ownedBy
        const found = teams.valuesIn(state).filter((t) =>
          t.organizationId === organizationId &&
          (title === undefined || containsFolded(t.title, title)) &&
          (ownedBy === undefined || ownsTeam(state, t.id, ownedBy))
        )
        return pageInMemory(found.map((t) => withCount(state, t)), teamKeyset, "asc", page)
      }),
    ownsAny: (organizationId, userId) =>
      store.read((state) => teams.valuesIn(state).some((t) => t.organizationId === organizationId && ownsTeam(state, t.id, userId))),
    findMembership: (teamId, userId) => teamMemberships.get(pairKey(teamId, userId)),
    upsertMembership: (membership) =>
      teamMemberships.upsert(
        pairKey(membership.teamId, membership.userId),
        // A member already in the team keeps the time it was added; only its role changes.
        Option.match({ onNone: () => membership, onSome: (existing) => ({ ...existing, role: membership.role }) })
      ),
    deleteMembership: (teamId, userId) => teamMemberships.remove(pairKey(teamId, userId)),
    listMemberships: (teamId, page) =>
      teamMemberships.page((m) => m.teamId === teamId, (m) => [m.addedAt.getTime(), m.userId], "asc", page),
    listForUser: (organizationId, userId, filter, page) =>
      store.read((state) => {
        const title = filter.title
        const rows = teamMemberships.valuesIn(state).filter(membershipOf(organizationId, userId)).flatMap((membership) => {
          const team = HashMap.get(teams.in(state), membership.teamId)
          if (Option.isNone(team) || (title !== undefined && !containsFolded(team.value.title, title))) return []
          return [{ team: withCount(state, team.value), membership }]
        })
        return pageInMemory(rows, ({ team }) => teamKeyset(team), "asc", page)
      }),
    countForUser: (organizationId, userId) => teamMemberships.count(membershipOf(organizationId, userId))
  }
})

export const MemoryInviteRepository = layerOver(InviteRepository, OrganizationsState, ({ invites }) => ({
  ...byId(invites),
  list: (organizationId, page) => invites.page(inOrganization(organizationId), byCreation, "asc", page)
}))
