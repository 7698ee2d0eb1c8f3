import {
  Acquaintances,
  conflicts,
  InviteRepository,
  MemberRepository,
  type Member,
  type MemberWithUser,
  type Organization,
  OrganizationRepository,
  pageInMemory,
  TeamRepository,
  type TeamWithCount
} from "@octavo/domain"
import { Effect, HashMap, Layer, Option } from "effect"
import { MemoryStore, pairKey, replace, values, type State } from "./Store.js"

const teamCount = (s: State, member: Member): number =>
  HashMap.size(HashMap.filter(s.teamMemberships, (m) => m.organizationId === member.organizationId && m.userId === member.userId))

const containsFolded = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase())

export const MemoryOrganizationRepository = Layer.effect(
  OrganizationRepository,
  Effect.map(MemoryStore, (store) => {
    const save = (organization: Organization, mode: "insert" | "update") =>
      store.write((s) => {
        const exists = HashMap.has(s.organizations, organization.id)
        if (mode === "insert" && exists) return Effect.fail(conflicts.idTaken("organization", organization.id))
        if (mode === "update" && !exists) return Effect.succeed([undefined, s] as const)
        const hostname = organization.hostname
        const taken = hostname !== undefined &&
          HashMap.some(s.organizations, (o) => o.id !== organization.id && o.hostname === hostname)
        return taken
          ? Effect.fail(conflicts.hostnameTaken(hostname))
          : Effect.succeed(
            [undefined, { ...s, organizations: HashMap.set(s.organizations, organization.id, organization) }] as const
          )
      })
    return {
      insert: (organization) => save(organization, "insert"),
      update: (organization) => save(organization, "update"),
      findById: (id) => store.read((s) => HashMap.get(s.organizations, id)),
      listForUser: (userId, page) =>
        store.read((s) => {
          const mine = values(s.organizations).filter((o) => HashMap.has(s.members, pairKey(o.id, userId)))
          return pageInMemory(mine, (o) => [o.createdAt.getTime(), o.id], "asc", page)
        }),
      findByEmailDomain: (domain) =>
        store.read((s) =>
          pageInMemory(
            values(s.organizations).filter((o) => o.emailDomains.includes(domain)),
            (o) => [o.createdAt.getTime(), o.id],
            "asc",
            { limit: Number.MAX_SAFE_INTEGER, after: Option.none() }
          ).items
        )
    }
  })
)

export const MemoryMemberRepository = Layer.effect(
  MemberRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (member) =>
      store.write((s) => {
        const key = pairKey(member.organizationId, member.userId)
        return HashMap.has(s.members, key)
          ? Effect.fail(conflicts.alreadyMember())
          : Effect.succeed([undefined, { ...s, members: HashMap.set(s.members, key, member) }] as const)
      }),
    update: (member) =>
      store.write((s) => [undefined, { ...s, members: replace(s.members, pairKey(member.organizationId, member.userId), member) }] as const),
    delete: (organizationId, userId) =>
      store.write((s) => [undefined, {
        ...s,
        members: HashMap.remove(s.members, pairKey(organizationId, userId)),
        teamMemberships: HashMap.filter(s.teamMemberships, (m) => !(m.organizationId === organizationId && m.userId === userId))
      }] as const),
    find: (organizationId, userId) => store.read((s) => HashMap.get(s.members, pairKey(organizationId, userId))),
    list: (organizationId, filter, page) =>
      store.read((s) => {
        const rows: Array<MemberWithUser> = []
        for (const member of HashMap.values(s.members)) {
          if (member.organizationId !== organizationId) continue
          if (filter.role !== undefined && member.role !== filter.role) continue
          if (filter.sort === "lastSeenAt" && member.lastSeenAt === undefined) continue
          const user = HashMap.get(s.users, member.userId)
          if (Option.isNone(user)) continue
          const search = filter.search
          if (search !== undefined && !containsFolded(user.value.displayName, search) && !containsFolded(user.value.email, search)) {
            continue
          }
          rows.push({ member, user: user.value, teams: teamCount(s, member) })
        }
        return pageInMemory(
          rows,
          ({ member }) => [(filter.sort === "lastSeenAt" ? member.lastSeenAt ?? member.joinedAt : member.joinedAt).getTime(), member.userId],
          filter.order,
          page
        )
      }),
    findMany: (organizationId, userIds) =>
      store.read((s) =>
        userIds.flatMap((userId) => {
          const member = HashMap.get(s.members, pairKey(organizationId, userId))
          const user = HashMap.get(s.users, userId)
          return Option.isSome(member) && Option.isSome(user)
            ? [{ member: member.value, user: user.value, teams: teamCount(s, member.value) }]
            : []
        })
      ),
    membershipsOf: (userId, organizationIds) =>
      store.read((s) => organizationIds.flatMap((id) => Option.toArray(HashMap.get(s.members, pairKey(id, userId))))),
    countWithRole: (organizationId, role) =>
      store.read((s) => HashMap.size(HashMap.filter(s.members, (m) => m.organizationId === organizationId && m.role === role)))
  }))
)

export const MemoryAcquaintances = Layer.effect(
  Acquaintances,
  Effect.map(MemoryStore, (store) => ({
    shareAnOrganization: (a, b) =>
      store.read((s) => HashMap.some(s.members, (m) => m.userId === a && HashMap.has(s.members, pairKey(m.organizationId, b))))
  }))
)

export const MemoryTeamRepository = Layer.effect(
  TeamRepository,
  Effect.map(MemoryStore, (store) => {
    const withCount = (s: State, team: TeamWithCount["team"]): TeamWithCount => ({
      team,
      members: HashMap.size(HashMap.filter(s.teamMemberships, (m) => m.teamId === team.id))
    })
    const teamKeyset = ({ team }: TeamWithCount) => [team.createdAt.getTime(), team.id] as const
    return {
      insert: (team) => store.write((s) => [undefined, { ...s, teams: HashMap.set(s.teams, team.id, team) }] as const),
      update: (team) => store.write((s) => [undefined, { ...s, teams: replace(s.teams, team.id, team) }] as const),
      delete: (id) =>
        store.write((s) => [undefined, {
          ...s,
          teams: HashMap.remove(s.teams, id),
          teamMemberships: HashMap.filter(s.teamMemberships, (m) => m.teamId !== id)
        }] as const),
      findById: (id) => store.read((s) => Option.map(HashMap.get(s.teams, id), (team) => withCount(s, team))),
      list: (organizationId, filter, page) =>
        store.read((s) => {
          const title = filter.title
          const ownedBy = filter.ownedBy
          const teams = values(s.teams).filter((t) =>
            t.organizationId === organizationId &&
            (title === undefined || containsFolded(t.title, title)) &&
            (ownedBy === undefined ||
              Option.exists(HashMap.get(s.teamMemberships, pairKey(t.id, ownedBy)), (m) => m.role === "owner"))
          )
          return pageInMemory(teams.map((t) => withCount(s, t)), teamKeyset, "asc", page)
        }),
      findMembership: (teamId, userId) => store.read((s) => HashMap.get(s.teamMemberships, pairKey(teamId, userId))),
      upsertMembership: (membership) =>
        store.write((s) => {
          const key = pairKey(membership.teamId, membership.userId)
          // A member already in the team keeps the time it was added; only its role changes.
          const kept = Option.match(HashMap.get(s.teamMemberships, key), {
            onNone: () => membership,
            onSome: (existing) => ({ ...existing, role: membership.role })
          })
          return [undefined, { ...s, teamMemberships: HashMap.set(s.teamMemberships, key, kept) }] as const
        }),
      deleteMembership: (teamId, userId) =>
        store.write((s) => [undefined, {
          ...s,
          teamMemberships: HashMap.remove(s.teamMemberships, pairKey(teamId, userId))
        }] as const),
      listMemberships: (teamId, page) =>
        store.read((s) =>
          pageInMemory(
            values(s.teamMemberships).filter((m) => m.teamId === teamId),
            (m) => [m.addedAt.getTime(), m.userId],
            "asc",
            page
          )
        ),
      listForUser: (organizationId, userId, filter, page) =>
        store.read((s) => {
          const title = filter.title
          const rows = values(s.teamMemberships).flatMap((membership) => {
            if (membership.organizationId !== organizationId || membership.userId !== userId) return []
            const team = HashMap.get(s.teams, membership.teamId)
            if (Option.isNone(team) || (title !== undefined && !containsFolded(team.value.title, title))) return []
            return [{ team: withCount(s, team.value), membership }]
          })
          return pageInMemory(rows, ({ team }) => teamKeyset(team), "asc", page)
        }),
      countForUser: (organizationId, userId) =>
        store.read((s) =>
          HashMap.size(HashMap.filter(s.teamMemberships, (m) => m.organizationId === organizationId && m.userId === userId))
        )
    }
  })
)

export const MemoryInviteRepository = Layer.effect(
  InviteRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (invite) => store.write((s) => [undefined, { ...s, invites: HashMap.set(s.invites, invite.id, invite) }] as const),
    update: (invite) => store.write((s) => [undefined, { ...s, invites: replace(s.invites, invite.id, invite) }] as const),
    delete: (id) => store.write((s) => [undefined, { ...s, invites: HashMap.remove(s.invites, id) }] as const),
    findById: (id) => store.read((s) => HashMap.get(s.invites, id)),
    list: (organizationId, page) =>
      store.read((s) =>
        pageInMemory(
          values(s.invites).filter((i) => i.organizationId === organizationId),
          (i) => [i.createdAt.getTime(), i.id],
          "asc",
          page
        )
      )
  }))
)
