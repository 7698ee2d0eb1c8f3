import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import {
  Acquaintances,
  Actor,
  Identity,
  Invites,
  MemberRepository,
  Members,
  Organizations,
  SecretsLive,
  type StoragePorts,
  TeamMembers,
  TeamRepository,
  Teams,
  TOKEN_CHECK_MS,
  type User
} from "../../src/index.js"
import { makeUser, type Services, uniqueId } from "./fixtures.js"

const as = (user: User) => Effect.provideService(Actor, user)

const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => Either.isLeft(result) ? result.left._tag : "success"

/** The use cases over a storage: what must hold whichever adapter stores the data. */
export const serviceContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("use cases", (it) => {
    it.effect("creating an organization makes its creator the admin; the last admin stays", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const members = yield* Members
        const alice = yield* makeUser()
        const created = yield* as(alice)(organizations.create({ title: "Docs", emailDomains: ["Acme.TEST", "acme.test"] }))
        expect(created.organization.emailDomains).toEqual(["acme.test"])
        expect(created.permissions).toMatchObject({ view: true, access: true, admin: true, createContent: true, ownTeam: false })
        const id = created.organization.id
        expect(failureTag(yield* Effect.either(as(alice)(members.updateRole(id, alice.id, "edit"))))).toBe("Conflict")
        expect(failureTag(yield* Effect.either(as(alice)(members.remove(id, alice.id))))).toBe("Conflict")
        const mine = yield* as(alice)(organizations.listMine({ limit: 10, after: Option.none() }))
        expect(mine.items.map((o) => o.organization.id)).toEqual([id])
      }))

    it.effect("two admins demoting each other at once leave one admin", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const members = yield* Members
        const invites = yield* Invites
        const alice = yield* makeUser()
        const bob = yield* makeUser()
        const { organization } = yield* as(alice)(organizations.create({ title: "Docs" }))
        const invite = yield* as(alice)(invites.create(organization.id, "admin"))
        yield* as(bob)(invites.join(organization.id, invite.invite.id))
        const results = yield* Effect.all([
          Effect.either(as(alice)(members.updateRole(organization.id, bob.id, "read"))),
          Effect.either(as(bob)(members.updateRole(organization.id, alice.id, "read")))
        ], { concurrency: "unbounded" })
        // The loser is refused either way: as the last admin (Conflict), or, when the stores
        // serialize the two, as a caller who is no longer an admin (Forbidden).
        const tags = results.map(failureTag)
        expect(tags.filter((t) => t === "success")).toHaveLength(1)
        expect(tags.filter((t) => t === "Conflict" || t === "Forbidden")).toHaveLength(1)
        const admins = yield* (yield* MemberRepository).countWithRole(organization.id, "admin")
        expect(admins).toBe(1)
      }))

    it.effect("a failed use case writes nothing: a team with a stranger in it", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const teams = yield* Teams
        const alice = yield* makeUser()
        const stranger = yield* makeUser()
        const { organization } = yield* as(alice)(organizations.create({ title: "Docs" }))
        const result = yield* Effect.either(
          as(alice)(teams.create(organization.id, { title: "Writers", members: [alice.id, stranger.id] }))
        )
        expect(failureTag(result)).toBe("InvalidInput")
        const listed = yield* as(alice)(teams.list(organization.id, {}, { limit: 10, after: Option.none() }))
        expect(listed.count).toBe(0)
      }))

    it.effect("team members: add and remove of the same user removes it, atomically", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const teams = yield* Teams
        const teamMembers = yield* TeamMembers
        const invites = yield* Invites
        const alice = yield* makeUser()
        const bob = yield* makeUser()
        const { organization } = yield* as(alice)(organizations.create({ title: "Docs" }))
        const invite = yield* as(alice)(invites.create(organization.id, "edit"))
        yield* as(bob)(invites.join(organization.id, invite.invite.id))
        expect(failureTag(yield* Effect.either(as(bob)(invites.join(organization.id, invite.invite.id))))).toBe("Conflict")
        const team = yield* as(alice)(teams.create(organization.id, { title: "Writers", members: [alice.id] }))
        yield* as(alice)(teamMembers.updateMembers(organization.id, team.team.id, {
          add: [bob.email, alice.id],
          remove: [bob.id],
          memberships: { [alice.id]: { role: "owner" } }
        }))
        const repo = yield* TeamRepository
        expect(Option.getOrThrow(yield* repo.findMembership(team.team.id, alice.id)).role).toBe("owner")
        expect(yield* repo.findMembership(team.team.id, bob.id)).toEqual(Option.none())
        // Owning a team shows in the organization's permissions and in the team's.
        expect((yield* as(alice)(organizations.get(organization.id))).permissions.ownTeam).toBe(true)
        expect((yield* as(alice)(teams.get(organization.id, team.team.id))).permissions).toEqual({ admin: true, view: true })
        const bad = yield* Effect.either(
          as(alice)(teamMembers.updateMembers(organization.id, team.team.id, {
            add: [bob.id, "nobody@example.com"]
          }))
        )
        expect(failureTag(bad)).toBe("InvalidInput")
        expect(yield* repo.findMembership(team.team.id, bob.id)).toEqual(Option.none())
      }))

    it.effect("tokens authenticate until revoked; the admin bootstrap is idempotent", () =>
      Effect.gen(function*() {
        const identity = yield* Identity
        const secret = uniqueId("secret")
        const admin = yield* identity.bootstrapInstanceAdmin(secret)
        const again = yield* identity.bootstrapInstanceAdmin(secret)
        expect(again.id).toBe(admin.id)
        expect((yield* identity.authenticate(secret)).id).toBe(admin.id)
        const user = yield* as(admin)(identity.createUser({ displayName: "Eve", email: `${uniqueId("eve")}@Example.com` }))
        expect(user.email).toBe(user.email.toLowerCase())
        const issued = yield* as(admin)(identity.createToken(user.id, { label: "ci" }))
        expect((yield* identity.authenticate(issued.secret)).id).toBe(user.id)
        yield* as(user)(identity.revokeToken(user.id, issued.token.id))
        expect(failureTag(yield* Effect.either(identity.authenticate(issued.secret)))).toBe("Unauthenticated")
        const acquaintances = yield* Acquaintances
        expect(yield* acquaintances.shareAnOrganization(admin.id, user.id)).toBe(false)
      }))

    it.effect("a token revoked through another server stops working there within the check time", () =>
      Effect.gen(function*() {
        const identity = yield* Identity
        // A second server over the same storage: an Identity of its own, with its own recent checks.
        const other = yield* Effect.provide(Identity, Identity.Default.pipe(Layer.provide(SecretsLive)))
        const admin = yield* identity.bootstrapInstanceAdmin(uniqueId("admin-secret"))
        const user = yield* as(admin)(identity.createUser({ displayName: "Rex", email: `${uniqueId("rex")}@example.com` }))
        const issued = yield* as(admin)(identity.createToken(user.id, { label: "two servers" }))
        expect((yield* other.authenticate(issued.secret)).id).toBe(user.id)
        expect((yield* identity.authenticate(issued.secret)).id).toBe(user.id)
        yield* as(user)(identity.revokeToken(user.id, issued.token.id))
        // Refused at once by the server that revoked it, though it had checked the token a moment before.
        expect(failureTag(yield* Effect.either(identity.authenticate(issued.secret)))).toBe("Unauthenticated")
        // The other server trusts its recent check until the check time has passed, then asks the storage again.
        yield* TestClock.adjust(TOKEN_CHECK_MS - 1)
        expect((yield* other.authenticate(issued.secret)).id).toBe(user.id)
        yield* TestClock.adjust(1)
        expect(failureTag(yield* Effect.either(other.authenticate(issued.secret)))).toBe("Unauthenticated")
      }))
  })
