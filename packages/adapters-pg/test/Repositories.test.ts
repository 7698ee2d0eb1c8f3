import { describe, expect, layer } from "@effect/vitest"
import {
  Acquaintances,
  Conflict,
  type Keyset,
  type Member,
  MemberRepository,
  type MemberSort,
  type MemberWithUser,
  type Order,
  type Page,
  type PageRequest,
  pageInMemory,
  InviteRepository,
  OrganizationRepository,
  type Role,
  type SiteId,
  type StoragePorts,
  TeamRepository,
  type TeamWithCount,
  TokenRepository,
  UnitOfWork,
  UserRepository
} from "@octavo/domain"
import { Effect, Either, Exit, type Layer, Option } from "effect"
import * as F from "./fixtures.js"
import { storages, walkPages } from "./helpers.js"

const allOf = <A>(list: (request: PageRequest) => Effect.Effect<Page<A>>) =>
  Effect.map(list({ limit: 1000, after: Option.none() }), (page) => page.items)

const suite = (name: string, makeLayer: () => Layer.Layer<StoragePorts>) =>
  layer(makeLayer(), { timeout: "60 seconds" })(name, (it) => {
    describe("users", () => {
      it.effect("round-trips a user, leaving absent fields absent", () =>
        Effect.gen(function*() {
          const users = yield* UserRepository
          const plain = F.user("users-plain", { createdAt: new Date(1_700_000_000_123) })
          const withPhoto = F.user("users-photo", { photoURL: "https://example.com/p.png", isInstanceAdmin: true })
          yield* users.insert(plain)
          yield* users.insert(withPhoto)
          const found = yield* users.findById(plain.id)
          expect(found).toEqual(Option.some(plain))
          expect(Object.keys(Option.getOrThrow(found))).not.toContain("photoURL")
          expect(Option.getOrThrow(found).createdAt.getTime()).toBe(1_700_000_000_123)
          expect(yield* users.findByEmail(withPhoto.email)).toEqual(Option.some(withPhoto))
          expect(yield* users.findById(F.userId("users-nobody"))).toEqual(Option.none())
          expect(yield* users.findByEmail("nobody@example.com")).toEqual(Option.none())
        }))

      it.effect("refuses a taken email or id with a Conflict", () =>
        Effect.gen(function*() {
          const users = yield* UserRepository
          yield* users.insert(F.user("users-first", { email: "taken@example.com" }))
          const sameEmail = yield* Effect.flip(users.insert(F.user("users-second", { email: "taken@example.com" })))
          expect(sameEmail).toBeInstanceOf(Conflict)
          expect(sameEmail.reason).toBe("A user with email taken@example.com exists already")
          const sameId = yield* Effect.flip(users.insert(F.user("users-first", { email: "other@example.com" })))
          expect(sameId.reason).toBe("A user with id users-first exists already")
          expect(yield* users.findById(F.userId("users-second"))).toEqual(Option.none())
        }))

      it.effect("finds many users by id in the order asked, skipping unknown ids", () =>
        Effect.gen(function*() {
          const users = yield* UserRepository
          const [a, b, c] = [F.user("many-a"), F.user("many-b"), F.user("many-c")]
          for (const u of [a, b, c]) yield* users.insert(u)
          const found = yield* users.findManyByIds([c.id, F.userId("many-missing"), a.id, b.id])
          expect(found).toEqual([c, a, b])
          expect(yield* users.findManyByIds([])).toEqual([])
        }))
    })

    describe("tokens", () => {
      it.effect("finds a token by hash and id and records its revocation", () =>
        Effect.gen(function*() {
          const users = yield* UserRepository
          const tokens = yield* TokenRepository
          yield* users.insert(F.user("tokens-owner"))
          const token = F.token("tokens-owner", "tokens-1", "hash-tokens-1")
          yield* tokens.insert(token)
          expect(yield* tokens.findByHash("hash-tokens-1")).toEqual(Option.some(token))
          expect(Object.keys(Option.getOrThrow(yield* tokens.findById(token.id)))).not.toContain("revokedAt")
          yield* tokens.revoke(token.id, new Date(1_800_000_000_007))
          expect(yield* tokens.findById(token.id)).toEqual(
            Option.some({ ...token, revokedAt: new Date(1_800_000_000_007) })
          )
          expect(yield* tokens.findByHash("hash-unknown")).toEqual(Option.none())
        }))
    })

    describe("organizations", () => {
      it.effect("round-trips every field, absent optional fields staying absent", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const bare = F.organization("orgs-bare", { defaultRole: null })
          const full = F.organization("orgs-full", {
            emailDomains: ["example.com", "example.org"],
            hostname: "acme",
            defaultRole: "edit",
            defaultContent: { type: "site", site: "site-1" as SiteId },
            logo: "https://example.com/logo.png",
            sso: true,
            ai: true,
            inviteLinks: true
          })
          yield* organizations.insert(bare)
          yield* organizations.insert(full)
          const foundBare = Option.getOrThrow(yield* organizations.findById(bare.id))
          expect(foundBare).toEqual(bare)
          expect(foundBare.defaultRole).toBeNull()
          for (const key of ["hostname", "defaultContent", "logo"]) expect(Object.keys(foundBare)).not.toContain(key)
          expect(yield* organizations.findById(full.id)).toEqual(Option.some(full))

          const cleared: typeof full = { ...bare, id: full.id, title: "Renamed" }
          yield* organizations.update(cleared)
          const foundCleared = Option.getOrThrow(yield* organizations.findById(full.id))
          expect(foundCleared).toEqual(cleared)
          for (const key of ["hostname", "defaultContent", "logo"]) expect(Object.keys(foundCleared)).not.toContain(key)
        }))

      it.effect("keeps hostnames unique among organizations that have one", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          yield* organizations.insert(F.organization("host-a", { hostname: "unique-host" }))
          yield* organizations.insert(F.organization("host-b"))
          yield* organizations.insert(F.organization("host-c"))
          const onInsert = yield* Effect.flip(organizations.insert(F.organization("host-d", { hostname: "unique-host" })))
          expect(onInsert.reason).toBe("The hostname unique-host is taken")
          const onUpdate = yield* Effect.flip(organizations.update(F.organization("host-b", { hostname: "unique-host" })))
          expect(onUpdate).toEqual(new Conflict({ reason: "The hostname unique-host is taken" }))
          expect(Option.getOrThrow(yield* organizations.findById(F.organizationId("host-b"))).hostname).toBeUndefined()
          // Freeing a hostname lets another organization take it.
          yield* organizations.update(F.organization("host-a"))
          yield* organizations.update(F.organization("host-b", { hostname: "unique-host" }))
          expect(Option.getOrThrow(yield* organizations.findById(F.organizationId("host-b"))).hostname).toBe("unique-host")
        }))

      it.effect("finds organizations by email domain in (createdAt, id) order", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const late = F.organization("domain-late", { emailDomains: ["shared.test"], createdAt: new Date(3_000) })
          const earlyB = F.organization("domain-B", { emailDomains: ["x.test", "shared.test"], createdAt: new Date(1_000) })
          const earlya = F.organization("domain-a", { emailDomains: ["shared.test"], createdAt: new Date(1_000) })
          const other = F.organization("domain-other", { emailDomains: ["other.test"], createdAt: new Date(500) })
          for (const o of [late, earlyB, earlya, other]) yield* organizations.insert(o)
          // "C" collation: upper-case letters sort before lower-case ones, as in JavaScript.
          expect(yield* organizations.findByEmailDomain("shared.test")).toEqual([earlyB, earlya, late])
          expect(yield* organizations.findByEmailDomain("none.test")).toEqual([])
        }))

      it.effect("lists a user's organizations page by page", () =>
        Effect.gen(function*() {
          const users = yield* UserRepository
          const organizations = yield* OrganizationRepository
          const members = yield* MemberRepository
          yield* users.insert(F.user("mine-user"))
          yield* users.insert(F.user("mine-other"))
          const mine: Array<ReturnType<typeof F.organization>> = []
          for (let i = 0; i < 9; i++) {
            const o = F.organization(`mine-${String.fromCharCode(i % 2 === 0 ? 65 + i : 97 + i)}`, {
              createdAt: new Date(1_000 * (i % 3))
            })
            yield* organizations.insert(o)
            yield* members.insert(F.member(o.id, i === 4 ? "mine-other" : "mine-user"))
            if (i !== 4) mine.push(o)
          }
          const seen = yield* walkPages(
            (request) => organizations.listForUser(F.userId("mine-user"), request),
            (request) => pageInMemory(mine, (o) => [o.createdAt.getTime(), o.id], "asc", request),
            2
          )
          expect(seen).toBe(8)
        }))
    })

    describe("members", () => {
      const org = "members-org"
      const next = F.random(42)
      const alphabet = "ABab09_-zZ"
      const ids = new Set<string>()
      while (ids.size < 30) {
        let id = ""
        const length = 1 + Math.floor(next() * 3)
        for (let i = 0; i < length; i++) id += F.pick(next, [...alphabet])
        ids.add(id)
      }
      const names = ["Ada Lovelace", "ADA", "Grace Hopper", "grace", "Linus", "Ünïcode Ådä"]
      const everyone: Array<MemberWithUser> = [...ids].map((id, i) => {
        const lastSeen = F.pick(next, [undefined, 5_000, 6_000, 7_000])
        return {
          user: F.user(id, { displayName: `${F.pick(next, names)} ${i}`, email: `person${i}@Example.com`.toLowerCase() }),
          member: F.member(org, id, {
            role: F.pick(next, ["read", "edit", "admin", null] as const),
            joinedAt: new Date(F.pick(next, [1_000, 2_000, 3_000])),
            ...(lastSeen === undefined ? {} : { lastSeenAt: new Date(lastSeen) })
          }),
          // No team memberships are made here, so every member is in none.
          teams: 0
        }
      })

      const reference = (filter: { role?: Role; search?: string; sort: MemberSort; order: Order }) => {
        const keysetOf = ({ member }: MemberWithUser): Keyset => [
          (filter.sort === "lastSeenAt" ? member.lastSeenAt! : member.joinedAt).getTime(),
          member.userId
        ]
        const matching = everyone.filter(({ member, user }) =>
          (filter.sort === "joinedAt" || member.lastSeenAt !== undefined) &&
          (filter.role === undefined || member.role === filter.role) &&
          (filter.search === undefined ||
            user.displayName.toLowerCase().includes(filter.search.toLowerCase()) ||
            user.email.toLowerCase().includes(filter.search.toLowerCase()))
        )
        return (request: PageRequest) => pageInMemory(matching, keysetOf, filter.order, request)
      }

      const seed = Effect.gen(function*() {
        const users = yield* UserRepository
        const organizations = yield* OrganizationRepository
        const members = yield* MemberRepository
        if (Option.isSome(yield* organizations.findById(F.organizationId(org)))) return
        yield* organizations.insert(F.organization(org))
        for (const { member, user } of everyone) {
          yield* users.insert(user)
          yield* members.insert(member)
        }
      })

      it.effect("pages exactly like pageInMemory for every sort, order and filter", () =>
        Effect.gen(function*() {
          yield* seed
          const members = yield* MemberRepository
          let walks = 0
          for (const sort of ["joinedAt", "lastSeenAt"] as const) {
            for (const order of ["asc", "desc"] as const) {
              for (const role of [undefined, "read", "admin"] as const) {
                for (const search of [undefined, "ada", "GRACE", "PERSON1", "ådä", "%", "nobody"]) {
                  const filter = { sort, order, ...(role === undefined ? {} : { role }), ...(search === undefined ? {} : { search }) }
                  for (const limit of search === undefined && role === undefined ? [1, 4, 100] : [3]) {
                    yield* walkPages(
                      (request) => members.list(F.organizationId(org), filter, request),
                      reference(filter),
                      limit
                    )
                    walks++
                  }
                }
              }
            }
          }
          expect(walks).toBe(2 * 2 * (2 + 3 * 7))
        }))

      it.effect("starts after any keyset, including ones that no member has", () =>
        Effect.gen(function*() {
          yield* seed
          const members = yield* MemberRepository
          const keysets: Array<Keyset> = [
            [2_000, "B"],
            [2_000, "a"],
            [1_999, "zzz"],
            [2_500, "-"],
            [0, ""],
            [9_999, "A"],
            [6_000, "0"]
          ]
          for (const sort of ["joinedAt", "lastSeenAt"] as const) {
            for (const order of ["asc", "desc"] as const) {
              for (const after of keysets) {
                const request = { limit: 5, after: Option.some(after) }
                expect(yield* members.list(F.organizationId(org), { sort, order }, request))
                  .toEqual(reference({ sort, order })(request))
              }
            }
          }
        }))

      it.effect("counts members with a role and tells whether two users share an organization", () =>
        Effect.gen(function*() {
          yield* seed
          const members = yield* MemberRepository
          const users = yield* UserRepository
          const organizations = yield* OrganizationRepository
          const acquaintances = yield* Acquaintances
          for (const role of ["read", "edit", "admin", "create"] as const) {
            expect(yield* members.countWithRole(F.organizationId(org), role))
              .toBe(everyone.filter(({ member }) => member.role === role).length)
          }
          yield* users.insert(F.user("share-outsider"))
          yield* users.insert(F.user("share-friend"))
          yield* organizations.insert(F.organization("share-org"))
          const [first, second] = everyone
          expect(yield* acquaintances.shareAnOrganization(first!.user.id, second!.user.id)).toBe(true)
          expect(yield* acquaintances.shareAnOrganization(first!.user.id, F.userId("share-outsider"))).toBe(false)
          yield* members.insert(F.member("share-org", "share-outsider"))
          yield* members.insert(F.member("share-org", "share-friend"))
          expect(yield* acquaintances.shareAnOrganization(F.userId("share-friend"), F.userId("share-outsider"))).toBe(true)
          expect(yield* acquaintances.shareAnOrganization(first!.user.id, F.userId("share-outsider"))).toBe(false)
        }))

      it.effect("refuses a second membership, updates one, and deletes it with its team memberships", () =>
        Effect.gen(function*() {
          const users = yield* UserRepository
          const organizations = yield* OrganizationRepository
          const members = yield* MemberRepository
          const teams = yield* TeamRepository
          yield* users.insert(F.user("leaver"))
          for (const o of ["leave-org", "stay-org"]) {
            yield* organizations.insert(F.organization(o))
            yield* members.insert(F.member(o, "leaver"))
            yield* teams.insert(F.team(o, `${o}-team`))
            yield* teams.upsertMembership(F.membership(o, `${o}-team`, "leaver"))
          }
          const again = yield* Effect.flip(members.insert(F.member("leave-org", "leaver", { role: "admin" })))
          expect(again.reason).toBe("The user is a member of this organization already")

          const updated: Member = F.member("leave-org", "leaver", {
            role: null,
            lastSeenAt: new Date(1_700_000_000_999),
            sso: true,
            disabled: true
          })
          yield* members.update(updated)
          expect(yield* members.find(F.organizationId("leave-org"), F.userId("leaver"))).toEqual(Option.some(updated))
          yield* members.update({ ...updated, lastSeenAt: undefined })
          const withoutLastSeen = Option.getOrThrow(yield* members.find(F.organizationId("leave-org"), F.userId("leaver")))
          expect(Object.keys(withoutLastSeen)).not.toContain("lastSeenAt")

          yield* members.delete(F.organizationId("leave-org"), F.userId("leaver"))
          expect(yield* members.find(F.organizationId("leave-org"), F.userId("leaver"))).toEqual(Option.none())
          expect(yield* teams.findMembership(F.teamId("leave-org-team"), F.userId("leaver"))).toEqual(Option.none())
          expect(yield* teams.countForUser(F.organizationId("leave-org"), F.userId("leaver"))).toBe(0)
          // Memberships in other organizations stay.
          expect(Option.isSome(yield* members.find(F.organizationId("stay-org"), F.userId("leaver")))).toBe(true)
          expect(yield* teams.countForUser(F.organizationId("stay-org"), F.userId("leaver"))).toBe(1)
        }))
    })

    describe("teams", () => {
      const org = "teams-org"
      const titles = ["Design", "design ops", "Engineering", "DEV", "Docs", "Support", "Sales", "Ops"]
      const userIds = ["t-u1", "t-u2", "t-u3", "t-U4"]
      const seed = Effect.gen(function*() {
        const users = yield* UserRepository
        const organizations = yield* OrganizationRepository
        const members = yield* MemberRepository
        const teams = yield* TeamRepository
        if (Option.isSome(yield* organizations.findById(F.organizationId(org)))) return
        yield* organizations.insert(F.organization(org))
        for (const id of userIds) {
          yield* users.insert(F.user(id))
          yield* members.insert(F.member(org, id))
        }
        for (const [i, title] of titles.entries()) {
          yield* teams.insert(F.team(org, `team-${"bBaA".charAt(i % 4)}${i}`, { title, createdAt: new Date(1_000 * (i % 3)) }))
        }
        // Each team i has members u(j) for j <= i % 4; the first of them owns it.
        for (const [i] of titles.entries()) {
          for (let j = 0; j <= i % 4; j++) {
            yield* teams.upsertMembership(
              F.membership(org, `team-${"bBaA".charAt(i % 4)}${i}`, userIds[j]!, {
                role: j === 0 ? "owner" : "member",
                addedAt: new Date(100 * (j % 2))
              })
            )
          }
        }
      })
      const allTeams = Effect.flatMap(TeamRepository, (teams) => allOf((request) => teams.list(F.organizationId(org), {}, request)))
      const teamKeyset = ({ team }: TeamWithCount): Keyset => [team.createdAt.getTime(), team.id]

      it.effect("lists teams with member counts, filtered by title and owner, page by page", () =>
        Effect.gen(function*() {
          yield* seed
          const teams = yield* TeamRepository
          const all = yield* allTeams
          expect(all.map(({ team }) => team.title).sort()).toEqual([...titles].sort())
          expect(all.map(({ members }) => members).reduce((a, b) => a + b)).toBe(
            titles.reduce((sum, _, i) => sum + (i % 4) + 1, 0)
          )
          for (const title of [undefined, "DES", "o", "%", "none"]) {
            for (const ownedBy of [undefined, "t-u1", "t-u2"]) {
              const filter = { ...(title === undefined ? {} : { title }), ...(ownedBy === undefined ? {} : { ownedBy: F.userId(ownedBy) }) }
              const expected = all.filter(({ team }) =>
                (title === undefined || team.title.toLowerCase().includes(title.toLowerCase())) &&
                (ownedBy === undefined || ownedBy === "t-u1")
              )
              yield* walkPages(
                (request) => teams.list(F.organizationId(org), filter, request),
                (request) => pageInMemory(expected, teamKeyset, "asc", request),
                3
              )
            }
          }
        }))

      it.effect("lists a team's memberships and a member's teams page by page", () =>
        Effect.gen(function*() {
          yield* seed
          const teams = yield* TeamRepository
          const all = yield* allTeams
          const biggest = all.find(({ members }) => members === 4)!
          const memberships = yield* allOf((request) => teams.listMemberships(biggest.team.id, request))
          expect(memberships.map((m) => m.userId).sort()).toEqual([...userIds].sort())
          yield* walkPages(
            (request) => teams.listMemberships(biggest.team.id, request),
            (request) => pageInMemory(memberships, (m) => [m.addedAt.getTime(), m.userId], "asc", request),
            1
          )
          for (const [j, user] of userIds.entries()) {
            // Team `team-<letter><i>` has the users 0 to i % 4.
            const theirs = all.filter(({ team }) => Number(team.id.slice("team-x".length)) % 4 >= j)
            expect(yield* teams.countForUser(F.organizationId(org), F.userId(user))).toBe(theirs.length)
            for (const title of [undefined, "d"]) {
              const expected = yield* Effect.forEach(
                theirs.filter(({ team }) => title === undefined || team.title.toLowerCase().includes(title)),
                (team) =>
                  Effect.map(teams.findMembership(team.team.id, F.userId(user)), (membership) => ({
                    team,
                    membership: Option.getOrThrow(membership)
                  }))
              )
              yield* walkPages(
                (request) => teams.listForUser(F.organizationId(org), F.userId(user), title === undefined ? {} : { title }, request),
                (request) => pageInMemory(expected, ({ team }) => teamKeyset(team), "asc", request),
                2
              )
            }
          }
        }))

      it.effect("replaces a membership's role, keeps its addedAt, and deletes teams with their memberships", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const users = yield* UserRepository
          const teams = yield* TeamRepository
          yield* organizations.insert(F.organization("team-life"))
          yield* users.insert(F.user("team-life-u"))
          const t = F.team("team-life", "team-life-t", { title: "Before" })
          yield* teams.insert(t)
          yield* teams.update({ ...t, title: "After" })
          expect(yield* teams.findById(t.id)).toEqual(Option.some({ team: { ...t, title: "After" }, members: 0 }))
          const first = F.membership("team-life", t.id, "team-life-u", { addedAt: new Date(111) })
          yield* teams.upsertMembership(first)
          yield* teams.upsertMembership({ ...first, role: "owner", addedAt: new Date(999) })
          expect(yield* teams.findMembership(t.id, F.userId("team-life-u"))).toEqual(
            Option.some({ ...first, role: "owner" })
          )
          expect(Option.getOrThrow(yield* teams.findById(t.id)).members).toBe(1)
          yield* teams.deleteMembership(t.id, F.userId("team-life-u"))
          expect(yield* teams.findMembership(t.id, F.userId("team-life-u"))).toEqual(Option.none())
          yield* teams.upsertMembership(first)
          yield* teams.delete(t.id)
          expect(yield* teams.findById(t.id)).toEqual(Option.none())
          expect(yield* teams.findMembership(t.id, F.userId("team-life-u"))).toEqual(Option.none())
        }))
    })

    describe("invites", () => {
      it.effect("lists invites page by page and updates and deletes them", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const invites = yield* InviteRepository
          yield* organizations.insert(F.organization("invite-org"))
          yield* organizations.insert(F.organization("invite-other"))
          const made = Array.from(
            { length: 11 },
            (_, i) => F.invite("invite-org", `inv-${"zZaA".charAt(i % 4)}${i}`, "read", new Date(10 * (i % 4)))
          )
          for (const i of made) yield* invites.insert(i)
          yield* invites.insert(F.invite("invite-other", "inv-elsewhere", "admin", new Date(0)))
          const list = (request: PageRequest) => invites.list(F.organizationId("invite-org"), request)
          const reference = (all: typeof made) => (request: PageRequest) =>
            pageInMemory(all, (i) => [i.createdAt.getTime(), i.id], "asc", request)
          expect(yield* walkPages(list, reference(made), 4)).toBe(11)

          const changed = { ...made[3]!, role: "edit" as const }
          yield* invites.update(changed)
          expect(yield* invites.findById(changed.id)).toEqual(Option.some(changed))
          yield* invites.delete(made[0]!.id)
          expect(yield* invites.findById(made[0]!.id)).toEqual(Option.none())
          const remaining = made.slice(1).map((i) => i.id === changed.id ? changed : i)
          expect(yield* walkPages(list, reference(remaining), 3)).toBe(10)
        }))
    })

    describe("unit of work", () => {
      it.effect("keeps none of a failed transaction's writes and all of a successful one's", () =>
        Effect.gen(function*() {
          const unitOfWork = yield* UnitOfWork
          const users = yield* UserRepository
          const failed = yield* Effect.exit(unitOfWork.transaction(Effect.gen(function*() {
            yield* users.insert(F.user("uow-rolled-back"))
            return yield* Effect.fail("stop" as const)
          })))
          expect(failed).toEqual(Exit.fail("stop"))
          expect(yield* users.findById(F.userId("uow-rolled-back"))).toEqual(Option.none())

          const died = yield* Effect.exit(unitOfWork.transaction(Effect.zipRight(
            users.insert(F.user("uow-died")),
            Effect.dieMessage("boom")
          )))
          expect(Exit.isFailure(died)).toBe(true)
          expect(yield* users.findById(F.userId("uow-died"))).toEqual(Option.none())

          yield* unitOfWork.transaction(Effect.zipRight(users.insert(F.user("uow-kept-1")), users.insert(F.user("uow-kept-2"))))
          expect(Option.isSome(yield* users.findById(F.userId("uow-kept-1")))).toBe(true)
          expect(Option.isSome(yield* users.findById(F.userId("uow-kept-2")))).toBe(true)
        }))

      it.effect("goes on after a Conflict handled inside the transaction", () =>
        Effect.gen(function*() {
          const unitOfWork = yield* UnitOfWork
          const users = yield* UserRepository
          yield* users.insert(F.user("uow-existing", { email: "uow@example.com" }))
          const conflict = yield* unitOfWork.transaction(Effect.gen(function*() {
            yield* users.insert(F.user("uow-before"))
            const result = yield* Effect.either(users.insert(F.user("uow-duplicate", { email: "uow@example.com" })))
            yield* users.insert(F.user("uow-after"))
            return result
          }))
          expect(Either.isLeft(conflict)).toBe(true)
          expect(Option.isSome(yield* users.findById(F.userId("uow-before")))).toBe(true)
          expect(Option.isSome(yield* users.findById(F.userId("uow-after")))).toBe(true)
          expect(yield* users.findById(F.userId("uow-duplicate"))).toEqual(Option.none())
        }))

      it.effect("rolls back an inner unit of work alone when the outer one handles its failure", () =>
        Effect.gen(function*() {
          const unitOfWork = yield* UnitOfWork
          const users = yield* UserRepository
          yield* unitOfWork.transaction(Effect.gen(function*() {
            yield* users.insert(F.user("uow-outer"))
            yield* Effect.ignore(unitOfWork.transaction(Effect.zipRight(users.insert(F.user("uow-inner")), Effect.fail("no"))))
          }))
          expect(Option.isSome(yield* users.findById(F.userId("uow-outer")))).toBe(true)
          expect(yield* users.findById(F.userId("uow-inner"))).toEqual(Option.none())
        }))
    })
  })

for (const [name, makeLayer] of storages) suite(name, makeLayer)
