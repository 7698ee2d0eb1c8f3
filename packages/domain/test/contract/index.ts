import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option } from "effect"
import {
  Acquaintances,
  type Conflict,
  InviteRepository,
  type Keyset,
  MemberRepository,
  OrganizationRepository,
  type Page,
  type PageRequest,
  type StoragePorts,
  OrganizationId,
  TeamId,
  TeamRepository,
  TokenId,
  UserId,
  TokenRepository,
  UnitOfWork,
  UserRepository
} from "../../src/index.js"
import { walk } from "./walk.js"
import { at, ContractServices, makeMember, makeOrganization, makeTeam, makeUser, newInviteId, uniqueId } from "./fixtures.js"
import { badInputContract } from "./badInput.js"
import { serviceContract } from "./services.js"
import { commentsContract } from "./comments.js"
import { contentContract } from "./content.js"
import { gitsyncContract } from "./gitsync.js"
import { importsContract } from "./imports.js"
import { integrationsContract } from "./integrations.js"
import { openapiContract } from "./openapi.js"
import { searchContract } from "./search.js"
import { siteRedirectsContract } from "./siteRedirects.js"
import { sitesContract } from "./sites.js"
import { spacesContract } from "./spaces.js"
import { ssoContract } from "./sso.js"
import { translationsContract } from "./translations.js"

const first = (request: Partial<PageRequest> = {}): PageRequest => ({ limit: 50, after: Option.none(), ...request })

const isConflict = <A>(result: Either.Either<A, Conflict>) => Either.isLeft(result) && result.left._tag === "Conflict"

/**
 * The storage contract: every adapter must pass it. `makeLayer` gives fresh storage;
 * tests share it within the suite and keep apart by using ids of their own.
 */
export const contractSuite = (name: string, makeLayer: () => Layer.Layer<StoragePorts>) => {
  describe(`storage contract: ${name}`, () => {
    layer(makeLayer(), { timeout: 60_000 })((it) => {
      it.effect("users: insert, find by id and email; an email names one user", () =>
        Effect.gen(function*() {
          const users = yield* UserRepository
          const user = yield* makeUser({ photoURL: "https://example.com/a.png" })
          expect(Option.getOrThrow(yield* users.findById(user.id))).toEqual(user)
          expect(Option.getOrThrow(yield* users.findByEmail(user.email))).toEqual(user)
          expect(yield* users.findByEmail(`missing-${user.email}`)).toEqual(Option.none())
          const other = yield* makeUser()
          const again = yield* Effect.either(users.insert({ ...other, id: user.id.replace("u", "x") as typeof user.id, email: user.email }))
          expect(isConflict(again)).toBe(true)
          const many = yield* users.findManyByIds([user.id, other.id])
          expect(many.map((u) => u.id).sort()).toEqual([user.id, other.id].sort())
          const plain = yield* makeUser()
          expect(Option.getOrThrow(yield* users.findById(plain.id)).photoURL).toBeUndefined()
        }))

      it.effect("tokens: found by hash, revoked with a date", () =>
        Effect.gen(function*() {
          const tokens = yield* TokenRepository
          const user = yield* makeUser()
          const token = { id: TokenId.make(uniqueId("k")), userId: user.id, label: "ci", hash: uniqueId("h"), createdAt: at(1) }
          yield* tokens.insert(token)
          expect(Option.getOrThrow(yield* tokens.findByHash(token.hash))).toEqual(token)
          // With its user, in one read.
          expect(yield* tokens.findWithUser(token.hash)).toEqual(Option.some({ token, user: Option.some(user) }))
          yield* tokens.revoke(token.id, at(2))
          expect(Option.getOrThrow(yield* tokens.findById(token.id)).revokedAt).toEqual(at(2))
          expect(yield* tokens.findWithUser(token.hash)).toEqual(
            Option.some({ token: { ...token, revokedAt: at(2) }, user: Option.some(user) })
          )
          expect(yield* tokens.findByHash("nothing")).toEqual(Option.none())
          expect(yield* tokens.findWithUser("nothing")).toEqual(Option.none())
        }))

      it.effect("organizations: hostnames are unique, updates keep optional fields", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const hostname = uniqueId("h").toLowerCase()
          const acme = yield* makeOrganization({ hostname, emailDomains: ["acme.test"] })
          const clash = yield* Effect.either(makeOrganization({ hostname }))
          expect(isConflict(clash)).toBe(true)
          const other = yield* makeOrganization()
          expect(isConflict(yield* Effect.either(organizations.update({ ...other, hostname })))).toBe(true)
          const updated = { ...acme, title: "Acme Docs", defaultRole: null, logo: "https://acme.test/logo.png" }
          yield* organizations.update(updated)
          expect(Option.getOrThrow(yield* organizations.findById(acme.id))).toEqual(updated)
          const { hostname: _, ...withoutHostname } = updated
          yield* organizations.update(withoutHostname)
          expect(Option.getOrThrow(yield* organizations.findById(acme.id)).hostname).toBeUndefined()
        }))

      it.effect("organizations: a user's organizations page by creation, every one once", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const user = yield* makeUser()
          const created = []
          for (const minute of [5, 1, 3, 3, 2]) {
            const organization = yield* makeOrganization({ createdAt: at(minute) })
            yield* makeMember(organization, user, "read")
            created.push(organization)
          }
          yield* makeOrganization()
          const all = yield* walk((page) => organizations.listForUser(user.id, page), 2)
          const expected = [...created].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
          expect(all.map((o) => o.id)).toEqual(expected.map((o) => o.id))
          const page = yield* organizations.listForUser(user.id, first({ limit: 2 }))
          expect(page.count).toBe(5)
        }))

      it.effect("organizations: found by email domain", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const domain = `${uniqueId("d").toLowerCase()}.test`
          const a = yield* makeOrganization({ emailDomains: [domain, "other.test"], createdAt: at(2) })
          const b = yield* makeOrganization({ emailDomains: [domain], createdAt: at(1) })
          yield* makeOrganization({ emailDomains: ["other.test"] })
          expect((yield* organizations.findByEmailDomain(domain)).map((o) => o.id)).toEqual([b.id, a.id])
        }))

      it.effect("members: joining twice is a conflict; roles are counted", () =>
        Effect.gen(function*() {
          const members = yield* MemberRepository
          const acquaintances = yield* Acquaintances
          const organization = yield* makeOrganization()
          const alice = yield* makeUser()
          const bob = yield* makeUser()
          yield* makeMember(organization, alice, "admin")
          yield* makeMember(organization, bob, null)
          expect(isConflict(yield* Effect.either(makeMember(organization, alice, "read")))).toBe(true)
          expect(yield* members.countWithRole(organization.id, "admin")).toBe(1)
          const found = Option.getOrThrow(yield* members.find(organization.id, bob.id))
          expect(yield* members.findWithOrganization(organization.id, bob.id)).toEqual(Option.some({ member: found, organization }))
          expect(yield* members.findWithOrganization(organization.id, (yield* makeUser()).id)).toEqual(Option.none())
          expect(found.role).toBeNull()
          expect(found.lastSeenAt).toBeUndefined()
          yield* members.update({ ...found, role: "admin", lastSeenAt: at(9), sso: true })
          expect(Option.getOrThrow(yield* members.find(organization.id, bob.id))).toEqual({
            ...found,
            role: "admin",
            lastSeenAt: at(9),
            sso: true
          })
          expect(yield* members.countWithRole(organization.id, "admin")).toBe(2)
          expect(yield* acquaintances.shareAnOrganization(alice.id, bob.id)).toBe(true)
          const stranger = yield* makeUser()
          expect(yield* acquaintances.shareAnOrganization(alice.id, stranger.id)).toBe(false)
        }))

      it.effect("members: filters by role and search, sorts by join or last-seen time both ways", () =>
        Effect.gen(function*() {
          const members = yield* MemberRepository
          const organization = yield* makeOrganization()
          const ada = yield* makeUser({ displayName: "Ada Lovelace" })
          const bob = yield* makeUser({ displayName: "Bob", email: `${uniqueId("bob")}@LOVELACE.example`.toLowerCase() })
          const cy = yield* makeUser({ displayName: "Cy" })
          yield* makeMember(organization, ada, "admin", { joinedAt: at(1), lastSeenAt: at(30) })
          yield* makeMember(organization, bob, "edit", { joinedAt: at(2) })
          yield* makeMember(organization, cy, "edit", { joinedAt: at(3), lastSeenAt: at(10) })
          const ids = (page: Page<{ member: { userId: string } }>) => page.items.map((r) => r.member.userId)
          const byJoin = yield* members.list(organization.id, { sort: "joinedAt", order: "desc" }, first())
          expect(ids(byJoin)).toEqual([cy.id, bob.id, ada.id])
          expect(byJoin.count).toBe(3)
          expect(byJoin.items[0]?.user).toEqual(cy)
          expect(byJoin.items[0]?.teams).toBe(0)
          const asc = yield* members.list(organization.id, { sort: "joinedAt", order: "asc" }, first())
          expect(ids(asc)).toEqual([ada.id, bob.id, cy.id])
          const seen = yield* members.list(organization.id, { sort: "lastSeenAt", order: "desc" }, first())
          expect(ids(seen)).toEqual([ada.id, cy.id])
          expect(seen.count).toBe(2)
          const editors = yield* members.list(organization.id, { role: "edit", sort: "joinedAt", order: "asc" }, first())
          expect(ids(editors)).toEqual([bob.id, cy.id])
          const dee = yield* makeUser({ displayName: "Dee" })
          yield* makeMember(organization, dee, null, { joinedAt: at(4) })
          const guests = yield* members.list(organization.id, { role: null, sort: "joinedAt", order: "asc" }, first())
          expect(ids(guests)).toEqual([dee.id])
          expect(guests.count).toBe(1)
          // By name, both ways, over pages: "Ada Lovelace" < "Bob" < "Cy" < "Dee".
          const byName = yield* walk((page) => members.list(organization.id, { sort: "name", order: "asc" }, page), 1)
          expect(byName.map((r) => r.member.userId)).toEqual([ada.id, bob.id, cy.id, dee.id])
          const byNameDesc = yield* walk((page) => members.list(organization.id, { sort: "name", order: "desc" }, page), 3)
          expect(byNameDesc.map((r) => r.member.userId)).toEqual([dee.id, cy.id, bob.id, ada.id])
          const search = yield* members.list(organization.id, { search: "lovelace", sort: "joinedAt", order: "asc" }, first())
          expect(ids(search)).toEqual([ada.id, bob.id])
          const none = yield* members.list(organization.id, { search: "zzz%_", sort: "joinedAt", order: "asc" }, first())
          expect(none.items).toEqual([])
          expect(none.count).toBe(0)
          expect(none.next).toEqual(Option.none())
        }))

      it.effect("members: found many at once with their team counts; a user's records in several organizations", () =>
        Effect.gen(function*() {
          const members = yield* MemberRepository
          const teams = yield* TeamRepository
          const organization = yield* makeOrganization()
          const other = yield* makeOrganization()
          const ann = yield* makeUser()
          const ben = yield* makeUser()
          yield* makeMember(organization, ann, "admin")
          yield* makeMember(organization, ben, "read")
          yield* makeMember(other, ann, "edit")
          const team = yield* makeTeam(organization)
          yield* teams.upsertMembership({ teamId: team.id, organizationId: organization.id, userId: ann.id, role: "owner", addedAt: at(1) })
          const found = yield* members.findMany(organization.id, [ben.id, ann.id, UserId.make(uniqueId("u"))])
          expect(found.map((m) => [m.user.id, m.member.role, m.teams]).sort()).toEqual([[ann.id, "admin", 1], [ben.id, "read", 0]].sort())
          expect(yield* members.findMany(organization.id, [])).toEqual([])
          const listed = yield* members.list(organization.id, { sort: "joinedAt", order: "asc" }, first())
          expect(listed.items.map((m) => [m.user.id, m.teams]).sort()).toEqual([[ann.id, 1], [ben.id, 0]].sort())
          const records = yield* members.membershipsOf(ann.id, [organization.id, other.id, OrganizationId.make(uniqueId("o"))])
          expect(records.map((m) => [m.organizationId, m.role]).sort()).toEqual([[organization.id, "admin"], [other.id, "edit"]].sort())
          expect(yield* members.membershipsOf(ben.id, [])).toEqual([])
        }))

      it.effect("members: paging returns each member once while members join", () =>
        Effect.gen(function*() {
          const members = yield* MemberRepository
          const organization = yield* makeOrganization()
          const joined = []
          for (let i = 0; i < 7; i++) {
            const user = yield* makeUser()
            yield* makeMember(organization, user, "read", { joinedAt: at(i % 3) })
            joined.push(user.id)
          }
          const seen: Array<string> = []
          let after: Option.Option<Keyset> = Option.none()
          for (let round = 0; round < 10; round++) {
            const page: Page<{ member: { userId: string } }> = yield* members.list(
              organization.id,
              { sort: "joinedAt", order: "desc" },
              { limit: 3, after }
            )
            seen.push(...page.items.map((r) => r.member.userId))
            // A newcomer joins between pages: later than everyone, so it belongs before the cursor.
            const late = yield* makeUser()
            yield* makeMember(organization, late, "read", { joinedAt: at(50 + round) })
            if (Option.isNone(page.next)) break
            after = page.next
          }
          expect(new Set(seen).size).toBe(seen.length)
          expect([...seen].sort()).toEqual([...joined].sort())
        }))

      it.effect("members: removing a member removes its team memberships there", () =>
        Effect.gen(function*() {
          const members = yield* MemberRepository
          const teams = yield* TeamRepository
          const organization = yield* makeOrganization()
          const user = yield* makeUser()
          yield* makeMember(organization, user, "edit")
          const team = yield* makeTeam(organization)
          yield* teams.upsertMembership({
            teamId: team.id,
            organizationId: organization.id,
            userId: user.id,
            role: "owner",
            addedAt: at(1)
          })
          expect(yield* teams.countForUser(organization.id, user.id)).toBe(1)
          yield* members.delete(organization.id, user.id)
          expect(yield* members.find(organization.id, user.id)).toEqual(Option.none())
          expect(yield* teams.countForUser(organization.id, user.id)).toBe(0)
          expect(Option.getOrThrow(yield* teams.findById(team.id)).members).toBe(0)
        }))

      it.effect("teams: filters by title and owner, counts members, pages memberships", () =>
        Effect.gen(function*() {
          const teams = yield* TeamRepository
          const organization = yield* makeOrganization()
          const owner = yield* makeUser()
          const plain = yield* makeUser()
          const writers = yield* makeTeam(organization, { title: "Tech Writers", createdAt: at(1) })
          const devs = yield* makeTeam(organization, { title: "Developers", createdAt: at(2) })
          const elsewhere = yield* makeOrganization()
          yield* makeTeam(elsewhere, { title: "Writers" })
          const put = (teamId: typeof writers.id, userId: typeof owner.id, role: "owner" | "member", minute: number) =>
            teams.upsertMembership({ teamId, organizationId: organization.id, userId, role, addedAt: at(minute) })
          yield* put(writers.id, owner.id, "owner", 3)
          yield* put(writers.id, plain.id, "member", 2)
          yield* put(devs.id, plain.id, "member", 4)
          yield* put(devs.id, plain.id, "owner", 4)

          const all = yield* teams.list(organization.id, {}, first())
          expect(all.items.map((t) => [t.team.id, t.members])).toEqual([[writers.id, 2], [devs.id, 1]])
          const titled = yield* teams.list(organization.id, { title: "WRITER" }, first())
          expect(titled.items.map((t) => t.team.id)).toEqual([writers.id])
          const owned = yield* teams.list(organization.id, { ownedBy: plain.id }, first())
          expect(owned.items.map((t) => t.team.id)).toEqual([devs.id])
          expect(owned.count).toBe(1)
          // A team's owner owns in its organization only; a plain member owns nothing.
          expect(yield* teams.ownsAny(organization.id, plain.id)).toBe(true)
          expect(yield* teams.ownsAny(organization.id, owner.id)).toBe(true)
          expect(yield* teams.ownsAny(elsewhere.id, owner.id)).toBe(false)

          const memberships = yield* walk((page) => teams.listMemberships(writers.id, page), 1)
          expect(memberships.map((m) => [m.userId, m.role])).toEqual([[plain.id, "member"], [owner.id, "owner"]])
          expect(Option.getOrThrow(yield* teams.findMembership(devs.id, plain.id)).role).toBe("owner")

          const ofPlain = yield* teams.listForUser(organization.id, plain.id, {}, first())
          expect(ofPlain.items.map((r) => [r.team.team.id, r.membership.role])).toEqual([[writers.id, "member"], [devs.id, "owner"]])
          const ofPlainTitled = yield* teams.listForUser(organization.id, plain.id, { title: "dev" }, first())
          expect(ofPlainTitled.items.map((r) => r.team.team.id)).toEqual([devs.id])
          expect(yield* teams.countForUser(organization.id, plain.id)).toBe(2)

          yield* teams.update({ ...devs, title: "Engineers" })
          expect(Option.getOrThrow(yield* teams.findById(devs.id)).team.title).toBe("Engineers")
          yield* teams.deleteMembership(writers.id, plain.id)
          expect(Option.getOrThrow(yield* teams.findById(writers.id)).members).toBe(1)
          yield* teams.delete(writers.id)
          expect(yield* teams.findById(writers.id)).toEqual(Option.none())
          expect(yield* teams.findMembership(writers.id, owner.id)).toEqual(Option.none())
          expect(yield* teams.countForUser(organization.id, owner.id)).toBe(0)
          // The owner's one team is gone, and a team's plain member owns nothing.
          expect(yield* teams.ownsAny(organization.id, owner.id)).toBe(false)
          const member = yield* makeUser()
          yield* teams.upsertMembership({
            teamId: devs.id,
            organizationId: organization.id,
            userId: member.id,
            role: "member",
            addedAt: at(5)
          })
          expect(yield* teams.ownsAny(organization.id, member.id)).toBe(false)
          expect(yield* teams.ownsAny(organization.id, plain.id)).toBe(true)
        }))

      it.effect("invites: stored, changed, listed by creation, deleted", () =>
        Effect.gen(function*() {
          const invites = yield* InviteRepository
          const organization = yield* makeOrganization()
          const later = { id: newInviteId(), organizationId: organization.id, role: "edit" as const, createdAt: at(2) }
          const earlier = { id: newInviteId(), organizationId: organization.id, role: "read" as const, createdAt: at(1) }
          yield* invites.insert(later)
          yield* invites.insert(earlier)
          const all = yield* walk((page) => invites.list(organization.id, page), 1)
          expect(all).toEqual([earlier, later])
          yield* invites.update({ ...later, role: "admin" })
          expect(Option.getOrThrow(yield* invites.findById(later.id)).role).toBe("admin")
          yield* invites.delete(earlier.id)
          expect(yield* invites.findById(earlier.id)).toEqual(Option.none())
          expect((yield* invites.list(organization.id, first())).count).toBe(1)
          // An invite for guests has no role.
          const guests = { id: newInviteId(), organizationId: organization.id, role: null, createdAt: at(3) }
          yield* invites.insert(guests)
          expect(yield* invites.findById(guests.id)).toEqual(Option.some(guests))
          yield* invites.update({ ...later, role: null })
          expect(Option.getOrThrow(yield* invites.findById(later.id)).role).toBeNull()
        }))

      it.effect("every adapter words conflicts alike and refuses a second object with the same id", () =>
        Effect.gen(function*() {
          const users = yield* UserRepository
          const user = yield* makeUser()
          const sameEmail = yield* Effect.flip(users.insert({ ...user, id: UserId.make(uniqueId("u")) }))
          expect(sameEmail.reason).toBe(`A user with email ${user.email} exists already`)
          const sameId = yield* Effect.flip(users.insert({ ...user, email: `other-${user.email}` }))
          expect(sameId.reason).toBe(`A user with id ${user.id} exists already`)
          const organization = yield* makeOrganization({ hostname: uniqueId("h").toLowerCase() })
          const sameHost = yield* Effect.flip(makeOrganization({ hostname: organization.hostname }))
          expect(sameHost.reason).toBe(`The hostname ${organization.hostname} is taken`)
          const sameOrg = yield* Effect.flip((yield* OrganizationRepository).insert({ ...organization, hostname: undefined }))
          expect(sameOrg.reason).toBe(`A organization with id ${organization.id} exists already`)
          yield* makeMember(organization, user, "read")
          const twice = yield* Effect.flip(makeMember(organization, user, "admin"))
          expect(twice.reason).toBe("The user is a member of this organization already")
        }))

      it.effect("updating what does not exist changes nothing; a team member keeps the time it was added", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const members = yield* MemberRepository
          const teams = yield* TeamRepository
          const invites = yield* InviteRepository
          const organization = yield* makeOrganization()
          const ghost = { ...organization, id: OrganizationId.make(uniqueId("o")) }
          yield* organizations.update(ghost)
          expect(yield* organizations.findById(ghost.id)).toEqual(Option.none())
          const user = yield* makeUser()
          yield* members.update({
            organizationId: organization.id,
            userId: user.id,
            role: "read",
            joinedAt: at(1),
            sso: false,
            disabled: false
          })
          expect(yield* members.find(organization.id, user.id)).toEqual(Option.none())
          const team = yield* makeTeam(organization)
          yield* teams.update({ ...team, id: TeamId.make(uniqueId("t")) })
          expect((yield* teams.list(organization.id, {}, first())).count).toBe(1)
          const invite = { id: newInviteId(), organizationId: organization.id, role: "read" as const, createdAt: at(1) }
          yield* invites.update(invite)
          expect(yield* invites.findById(invite.id)).toEqual(Option.none())
          yield* makeMember(organization, user, "read")
          yield* teams.upsertMembership({
            teamId: team.id,
            organizationId: organization.id,
            userId: user.id,
            role: "member",
            addedAt: at(3)
          })
          yield* teams.upsertMembership({
            teamId: team.id,
            organizationId: organization.id,
            userId: user.id,
            role: "owner",
            addedAt: at(9)
          })
          expect(Option.getOrThrow(yield* teams.findMembership(team.id, user.id))).toMatchObject({ role: "owner", addedAt: at(3) })
        }))

      it.effect("unit of work: a failed transaction keeps none of its writes", () =>
        Effect.gen(function*() {
          const uow = yield* UnitOfWork
          const organizations = yield* OrganizationRepository
          const members = yield* MemberRepository
          const user = yield* makeUser()
          let organizationId = ""
          const failed = yield* Effect.either(uow.transaction(Effect.gen(function*() {
            const organization = yield* makeOrganization()
            organizationId = organization.id
            yield* makeMember(organization, user, "admin")
            expect(Option.isSome(yield* organizations.findById(organization.id))).toBe(true)
            return yield* Effect.fail("boom" as const)
          })))
          expect(failed).toEqual(Either.left("boom"))
          expect(yield* organizations.findById(organizationId as never)).toEqual(Option.none())
          expect((yield* organizations.listForUser(user.id, first())).count).toBe(0)
          const kept = yield* uow.transaction(makeOrganization())
          expect(Option.isSome(yield* organizations.findById(kept.id))).toBe(true)
          expect(yield* members.find(kept.id, user.id)).toEqual(Option.none())
        }))

      it.effect("unit of work: concurrent transactions do not see each other's partial writes", () =>
        Effect.gen(function*() {
          const uow = yield* UnitOfWork
          const organizations = yield* OrganizationRepository
          const results = yield* Effect.forEach(
            Array.from({ length: 8 }, (_, i) => i),
            (i) =>
              Effect.either(uow.transaction(Effect.gen(function*() {
                const organization = yield* Effect.orDie(makeOrganization())
                yield* Effect.yieldNow()
                if (i % 2 === 0) return yield* Effect.fail(organization.id)
                return organization.id
              }))),
            { concurrency: "unbounded" }
          )
          for (const result of results) {
            const id = Either.isLeft(result) ? result.left : result.right
            const found = yield* organizations.findById(id)
            expect(Option.isSome(found)).toBe(Either.isRight(result))
          }
        }))
    })

    serviceContract(makeLayer(), ContractServices)
    spacesContract(makeLayer(), ContractServices)
    contentContract(makeLayer(), ContractServices)
    searchContract(makeLayer(), ContractServices)
    importsContract(makeLayer())
    badInputContract(makeLayer(), ContractServices)
    commentsContract(makeLayer(), ContractServices)
    sitesContract(makeLayer(), ContractServices)
    siteRedirectsContract(makeLayer(), ContractServices)
    integrationsContract(makeLayer())
    openapiContract(makeLayer())
    ssoContract(makeLayer())
    translationsContract(makeLayer(), ContractServices)
    gitsyncContract(makeLayer(), ContractServices)
  })
}
export { walk } from "./walk.js"
export { spacesModelProperty } from "./spacesModel.js"
export { commentsModelProperty } from "./commentsModel.js"
export { sitesModelProperty } from "./sitesModel.js"
export { storedEvent } from "./events.js"
