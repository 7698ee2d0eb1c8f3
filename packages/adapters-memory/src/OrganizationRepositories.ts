import {
  Conflict,
  InviteRepository,
  MemberRepository,
  type MemberWithUser,
  type Organization,
  OrganizationRepository,
  pageInMemory,
  TeamRepository,
  type TeamWithCount
} from "@octavo/domain"
import { Effect, HashMap, Layer, Option } from "effect"
import { MemoryStore, pairKey, type State } from "./Store.js"

const values = <V>(map: HashMap.HashMap<string, V>): Array<V> => Array.from(HashMap.values(map))
const containsFolded = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase())

export const MemoryOrganizationRepository = Layer.effect(
  OrganizationRepository,
  Effect.map(MemoryStore, (store) => {
    const save = (organization: Organization) =>
      store.write((s) => {
        const taken = organization.hostname !== undefined &&
          HashMap.some(s.organizations, (o) => o.id !== organization.id && o.hostname === organization.hostname)
        return taken
          ? Effect.fail(new Conflict({ reason: `The hostname ${organization.hostname} is taken` }))
          : Effect.succeed(
            [undefined, { ...s, organizations: HashMap.set(s.organizations, organization.id, organization) }] as const
          )
      })
    return {
      insert: save,
      update: save,
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
          ? Effect.fail(new Conflict({ reason: "The user is a member of this organization already" }))
          : Effect.succeed([undefined, { ...s, members: HashMap.set(s.members, key, member) }] as const)
      }),
    update: (member) =>
      store.write((s) => [undefined, {
        ...s,
        members: HashMap.set(s.members, pairKey(member.organizationId, member.userId), member)
      }] as const),
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
          rows.push({ member, user: user.value })
        }
        return pageInMemory(
          rows,
          ({ member }) => [(filter.sort === "lastSeenAt" ? member.lastSeenAt ?? member.joinedAt : member.joinedAt).getTime(), member.userId],
          filter.order,
          page
        )
      }),
    countWithRole: (organizationId, role) =>
      store.read((s) => HashMap.size(HashMap.filter(s.members, (m) => m.organizationId === organizationId && m.role === role))),
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
      update: (team) => store.write((s) => [undefined, { ...s, teams: HashMap.set(s.teams, team.id, team) }] as const),
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
        store.write((s) => [undefined, {
          ...s,
          teamMemberships: HashMap.set(s.teamMemberships, pairKey(membership.teamId, membership.userId), membership)
        }] as const),
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
    update: (invite) => store.write((s) => [undefined, { ...s, invites: HashMap.set(s.invites, invite.id, invite) }] as const),
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
