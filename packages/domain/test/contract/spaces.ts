import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Either, Layer, Option, TestClock } from "effect"
import {
  Actor,
  CollectionId,
  CollectionRepository,
  type Collection,
  CustomFieldId,
  CustomFieldRepository,
  CustomFields,
  type Organization,
  type PageRequest,
  RevisionId,
  RevisionRepository,
  SiblingRepository,
  type Space,
  SpaceId,
  SpaceRepository,
  Collections,
  CollectionPlacement,
  SpaceLifecycle,
  SpacePlacement,
  Spaces,
  type StoragePorts
} from "../../src/index.js"
import { adminOfNewOrganization, at, makeMember, makeOrganization, makeUser, type Services, uniqueId } from "./fixtures.js"

const first = (request: Partial<PageRequest> = {}): PageRequest => ({ limit: 50, after: Option.none(), ...request })
const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

const collection = (organization: Organization, fields: Partial<Collection> = {}): Collection => ({
  id: CollectionId.make(uniqueId("c")),
  organizationId: organization.id,
  title: "Guides",
  parentId: null,
  position: "V",
  defaultLevel: "read",
  createdAt: at(0),
  updatedAt: at(0),
  ...fields
})

const space = (organization: Organization, fields: Partial<Space> = {}): Space => ({
  id: SpaceId.make(uniqueId("s")),
  organizationId: organization.id,
  parentId: null,
  position: "V",
  title: "Space",
  emoji: "",
  visibility: "private",
  editMode: "live",
  defaultLevel: "read",
  revisionId: RevisionId.make(uniqueId("r")),
  createdBy: "nobody" as Space["createdBy"],
  createdAt: at(0),
  updatedAt: at(0),
  ...fields
})

/** The spaces slice of the storage contract, repositories then use cases. */
export const spacesContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("collections and spaces", (it) => {
    it.effect("a space or a collection is read with the reader's membership and its organization's collections, in creation order", () =>
      Effect.gen(function*() {
        const collections = yield* CollectionRepository
        const spaces = yield* SpaceRepository
        const organization = yield* makeOrganization()
        const other = yield* makeOrganization()
        const member = yield* makeUser()
        const outsider = yield* makeUser()
        const record = yield* makeMember(organization, member, "edit")
        const later = collection(organization, { createdAt: at(2) })
        const earlier = collection(organization, { parentId: later.id, createdAt: at(1) })
        for (const c of [later, earlier, collection(other)]) yield* collections.insert(c)
        const deleted = space(organization, { parentId: earlier.id, deletedAt: at(3) })
        yield* spaces.insert(deleted)
        const found = Option.getOrThrow(yield* spaces.findForAccess(deleted.id, member.id))
        expect(found.item).toEqual(deleted)
        expect(found.membership).toEqual(Option.some({ member: record, organization }))
        expect(found.collections).toEqual([earlier, later])
        expect(yield* spaces.findForAccess(deleted.id, outsider.id)).toEqual(
          Option.some({ item: deleted, membership: Option.none(), collections: [] })
        )
        expect(yield* spaces.findForAccess(SpaceId.make(uniqueId("none")), member.id)).toEqual(Option.none())
        expect(yield* collections.findForAccess(earlier.id, member.id)).toEqual(
          Option.some({ item: earlier, membership: found.membership, collections: [earlier, later] })
        )
        expect(yield* collections.findForAccess(earlier.id, outsider.id)).toEqual(
          Option.some({ item: earlier, membership: Option.none(), collections: [] })
        )
        // The organization itself, with the member's membership and its collections; nothing for others.
        expect(yield* collections.listForMember(organization.id, member.id)).toEqual(
          Option.some({ membership: { member: record, organization }, collections: [earlier, later] })
        )
        expect(yield* collections.listForMember(organization.id, outsider.id)).toEqual(Option.none())
        expect(yield* collections.listForMember(other.id, member.id)).toEqual(Option.none())
      }))

    it.effect("collections and spaces list by creation, or a parent's children in sibling order", () =>
      Effect.gen(function*() {
        const collections = yield* CollectionRepository
        const spaces = yield* SpaceRepository
        const organization = yield* makeOrganization()
        const guides = collection(organization, { position: "a", createdAt: at(2) })
        const api = collection(organization, { position: "Z", createdAt: at(1) })
        const inner = collection(organization, { parentId: guides.id, position: "V", createdAt: at(3) })
        for (const c of [guides, api, inner]) yield* collections.insert(c)
        expect((yield* collections.list(organization.id, { _tag: "all" }, first())).items.map((c) => c.id)).toEqual([
          api.id,
          guides.id,
          inner.id
        ])
        const top = yield* collections.list(organization.id, { _tag: "children", parentId: null }, first({ limit: 1 }))
        expect(top.items.map((c) => c.id)).toEqual([api.id])
        expect(top.count).toBe(2)
        const rest = yield* collections.list(organization.id, { _tag: "children", parentId: null }, first({ after: top.next }))
        expect(rest.items.map((c) => c.id)).toEqual([guides.id])
        expect((yield* collections.listAll(organization.id)).length).toBe(3)
        const a = space(organization, { parentId: guides.id, position: "W0V", createdAt: at(5) })
        const b = space(organization, { parentId: guides.id, position: "W", createdAt: at(4) })
        const gone = space(organization, { parentId: guides.id, position: "X", deletedAt: at(6) })
        for (const s of [a, b, gone]) yield* spaces.insert(s)
        const children = yield* spaces.list(organization.id, { _tag: "children", parentId: guides.id }, first())
        expect(children.items.map((s) => s.id)).toEqual([b.id, a.id])
        expect(children.count).toBe(2)
        expect(Option.getOrThrow(yield* spaces.findById(gone.id)).deletedAt).toEqual(at(6))
        const newest = yield* spaces.list(organization.id, { _tag: "all", order: "desc" }, first({ limit: 1 }))
        expect(newest.items.map((s) => s.id)).toEqual([a.id])
        const older = yield* spaces.list(organization.id, { _tag: "all", order: "desc" }, first({ after: newest.next }))
        expect(older.items.map((s) => s.id)).toEqual([b.id])
        expect((yield* spaces.listInCollections([guides.id])).map((s) => s.id).sort()).toEqual([a.id, b.id, gone.id].sort())
        const siblings = yield* (yield* SiblingRepository).childrenOf(organization.id, guides.id)
        expect(siblings.map((s) => [s.id, s.position]).sort()).toEqual(
          [[inner.id, "V"], [a.id, "W0V"], [b.id, "W"], [gone.id, "X"]].sort()
        )
        yield* collections.update({ ...inner, title: "Inner", parentId: null })
        expect(Option.getOrThrow(yield* collections.findById(inner.id))).toMatchObject({ title: "Inner", parentId: null })
        yield* collections.delete(api.id)
        expect(yield* collections.findById(api.id)).toEqual(Option.none())
      }))

    it.effect("deleting a space for good removes its revisions and custom field values; purging finds expired ones", () =>
      Effect.gen(function*() {
        const spaces = yield* SpaceRepository
        const revisions = yield* RevisionRepository
        const fields = yield* CustomFieldRepository
        const organization = yield* makeOrganization()
        const doomed = space(organization, { deletedAt: at(1) })
        const fresh = space(organization, { deletedAt: at(10) })
        yield* spaces.insert(doomed)
        yield* spaces.insert(fresh)
        const revision = { id: doomed.revisionId, spaceId: doomed.id, parents: [], type: "edits" as const, createdAt: at(1) }
        yield* revisions.insert(revision)
        expect(Option.getOrThrow(yield* revisions.findById(revision.id))).toEqual(revision)
        const field = {
          id: CustomFieldId.make(uniqueId("f")),
          organizationId: organization.id,
          name: "owner",
          type: "text" as const,
          createdAt: at(0),
          updatedAt: at(0)
        }
        yield* fields.insert(field)
        yield* fields.setValues(doomed.id, new Map([[field.id, "docs team"]]))
        const expired = yield* spaces.listDeletedBefore(at(5), 100)
        expect(expired.map((s) => s.id)).toContain(doomed.id)
        expect(expired.map((s) => s.id)).not.toContain(fresh.id)
        yield* spaces.delete(doomed.id)
        expect(yield* spaces.findById(doomed.id)).toEqual(Option.none())
        expect(yield* revisions.findById(revision.id)).toEqual(Option.none())
        expect((yield* fields.valuesOf(doomed.id)).size).toBe(0)
      }))

    it.effect("custom fields: names unique per organization, values set and cleared, deleted with their values", () =>
      Effect.gen(function*() {
        const fields = yield* CustomFieldRepository
        const organization = yield* makeOrganization()
        const field = {
          id: CustomFieldId.make(uniqueId("f")),
          organizationId: organization.id,
          name: "audience",
          type: "multi-select" as const,
          options: ["devs", "ops"],
          createdAt: at(1),
          updatedAt: at(1)
        }
        yield* fields.insert(field)
        const clash = yield* Effect.flip(fields.insert({ ...field, id: CustomFieldId.make(uniqueId("f")) }))
        expect(clash.reason).toBe("A custom field named audience exists already")
        const elsewhere = yield* makeOrganization()
        yield* fields.insert({ ...field, id: CustomFieldId.make(uniqueId("f")), organizationId: elsewhere.id })
        expect(Option.getOrThrow(yield* fields.findByName(organization.id, "audience"))).toEqual(field)
        expect((yield* fields.list(organization.id, first())).items).toEqual([field])
        const s = space(organization)
        yield* (yield* SpaceRepository).insert(s)
        yield* fields.setValues(s.id, new Map([[field.id, ["devs"]]]))
        expect(yield* fields.valuesOf(s.id)).toEqual(new Map([[field.id, ["devs"]]]))
        yield* fields.setValues(s.id, new Map([[field.id, null]]))
        expect((yield* fields.valuesOf(s.id)).size).toBe(0)
        yield* fields.update({ ...field, title: "Audience" })
        expect(Option.getOrThrow(yield* fields.findByName(organization.id, "audience")).title).toBe("Audience")
        yield* fields.setValues(s.id, new Map([[field.id, ["ops"]]]))
        yield* fields.delete(field.id)
        expect(yield* fields.findByName(organization.id, "audience")).toEqual(Option.none())
        expect((yield* fields.valuesOf(s.id)).size).toBe(0)
      }))

    it.effect("use cases: positions, moves, cycles, deleting a collection keeps what it holds", () =>
      Effect.gen(function*() {
        const content = yield* Spaces
        const lifecycle = yield* SpaceLifecycle
        const placement = yield* SpacePlacement
        const collections = yield* Collections
        const collectionPlacement = yield* CollectionPlacement
        const { organization, run } = yield* adminOfNewOrganization
        const guides = yield* run(collections.create(organization.id, { title: "Guides" }))
        const a = yield* run(content.create(organization.id, { title: "A", parent: guides.collection.id }))
        const b = yield* run(content.create(organization.id, { title: "B", parent: guides.collection.id }))
        const inner = yield* run(collections.create(organization.id, { title: "Inner", parent: guides.collection.id }))
        expect(a.space.visibility).toBe("in-collection")
        const order = () => Effect.map(run(collections.listSpaces(guides.collection.id, first())), (p) => p.items.map((s) => s.space.title))
        expect(yield* order()).toEqual(["A", "B"])
        yield* run(placement.move(b.space.id, { position: { before: { type: "space", space: a.space.id } } }))
        expect(yield* order()).toEqual(["B", "A"])
        const badSibling = yield* Effect.either(
          run(placement.move(b.space.id, { position: { after: { type: "space", space: guides.collection.id } } }))
        )
        expect(failureTag(badSibling)).toBe("InvalidInput")
        const cycle = yield* Effect.either(run(collectionPlacement.move(guides.collection.id, { parent: inner.collection.id })))
        expect(failureTag(cycle)).toBe("Conflict")
        const self = yield* Effect.either(run(collectionPlacement.move(guides.collection.id, { parent: guides.collection.id })))
        expect(failureTag(self)).toBe("Conflict")
        yield* run(lifecycle.delete(a.space.id))
        yield* run(collections.delete(guides.collection.id))
        const top = yield* (yield* SiblingRepository).childrenOf(organization.id, null)
        expect(top.map((s) => s.id).sort()).toEqual([a.space.id, b.space.id, inner.collection.id].sort())
        const restored = yield* run(lifecycle.restore(a.space.id))
        expect(restored.space).toMatchObject({ parentId: null, visibility: "private" })
        const topSpaces = yield* (yield* SpaceRepository).list(organization.id, { _tag: "children", parentId: null }, first())
        expect(topSpaces.items.map((s) => s.title)).toEqual(["B", "A"])
      }))

    it.effect("default levels: a role, inherit or none are stored, and decide levels as the tree says; icons are stored", () =>
      Effect.gen(function*() {
        const content = yield* Spaces
        const collections = yield* Collections
        const { organization, run } = yield* adminOfNewOrganization
        const reader = yield* makeUser()
        yield* makeMember(organization, reader, "read")
        const asReader = Effect.provideService(Actor, reader)
        const outer = yield* run(collections.create(organization.id, { title: "Outer" }))
        const inner = yield* run(collections.create(organization.id, { title: "Inner", parent: outer.collection.id }))
        const s = yield* run(content.create(organization.id, { title: "S", parent: inner.collection.id }))
        yield* run(collections.update(outer.collection.id, { defaultLevel: "edit" }))
        const levels = Effect.map(
          Effect.all([asReader(collections.get(inner.collection.id)), asReader(content.get(s.space.id))]),
          ([c, v]) => [c.permissions.edit, v.permissions.edit]
        )
        // "read" adds nothing to a reader and lets the level of the collections above through.
        expect(yield* levels).toEqual([true, true])
        yield* run(content.update(s.space.id, { defaultLevel: "inherit" }))
        expect(yield* levels).toEqual([true, true])
        // None on the inner collection: what is above it no longer applies, there or below.
        yield* run(collections.update(inner.collection.id, { defaultLevel: null }))
        expect(yield* levels).toEqual([false, false])
        yield* run(content.update(s.space.id, { defaultLevel: "edit" }))
        expect(yield* levels).toEqual([false, true])
        const stored = {
          collection: Option.getOrThrow(yield* (yield* CollectionRepository).findById(inner.collection.id)).defaultLevel,
          space: Option.getOrThrow(yield* (yield* SpaceRepository).findById(s.space.id)).defaultLevel
        }
        expect(stored).toEqual({ collection: null, space: "edit" })
        yield* run(content.update(s.space.id, { defaultLevel: "inherit", icon: "https://example.com/icon.png" }))
        const withIcon = Option.getOrThrow(yield* (yield* SpaceRepository).findById(s.space.id))
        expect([withIcon.defaultLevel, withIcon.icon, withIcon.emoji]).toEqual(["inherit", "https://example.com/icon.png", ""])
        yield* run(content.update(s.space.id, { emoji: "🎉" }))
        const withEmoji = Option.getOrThrow(yield* (yield* SpaceRepository).findById(s.space.id))
        expect([withEmoji.icon, withEmoji.emoji]).toEqual([undefined, "🎉"])
      }))

    it.effect("use cases: spaces created at once under one parent all get their own place", () =>
      Effect.gen(function*() {
        const content = yield* Spaces
        const collections = yield* Collections
        const { organization, run } = yield* adminOfNewOrganization
        const guides = yield* run(collections.create(organization.id, { title: "Guides" }))
        yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => i),
          (i) => run(content.create(organization.id, { title: `S${i}`, parent: guides.collection.id })),
          { concurrency: "unbounded" }
        )
        const children = yield* (yield* SiblingRepository).childrenOf(organization.id, guides.collection.id)
        expect(children.length).toBe(8)
        expect(new Set(children.map((c) => c.position)).size).toBe(8)
      }))

    it.effect("use cases: a deleted space is restorable for 7 days, then purged", () =>
      Effect.gen(function*() {
        const content = yield* Spaces
        const lifecycle = yield* SpaceLifecycle
        const { organization, run } = yield* adminOfNewOrganization
        const kept = yield* run(content.create(organization.id, { title: "Kept" }))
        const lost = yield* run(content.create(organization.id, { title: "Lost" }))
        yield* run(lifecycle.delete(kept.space.id))
        yield* run(lifecycle.delete(lost.space.id))
        expect(failureTag(yield* Effect.either(run(content.get(kept.space.id))))).toBe("NotFound")
        yield* TestClock.adjust(Duration.days(7))
        expect((yield* run(lifecycle.restore(kept.space.id))).space.deletedAt).toBeUndefined()
        yield* TestClock.adjust(Duration.millis(1))
        expect(failureTag(yield* Effect.either(run(lifecycle.restore(lost.space.id))))).toBe("PreconditionFailed")
        // Several servers may purge at once: each run completes and the space is gone once.
        const runs = yield* Effect.all([lifecycle.purgeExpired, lifecycle.purgeExpired], { concurrency: "unbounded" })
        expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1)
        expect(yield* (yield* SpaceRepository).findById(lost.space.id)).toEqual(Option.none())
        expect(failureTag(yield* Effect.either(run(lifecycle.restore(lost.space.id))))).toBe("NotFound")
        expect(Option.isSome(yield* (yield* SpaceRepository).findById(kept.space.id))).toBe(true)
      }))

    it.effect("use cases: custom field values are checked whole before any is written", () =>
      Effect.gen(function*() {
        const content = yield* Spaces
        const lifecycle = yield* SpaceLifecycle
        const placement = yield* SpacePlacement
        const collections = yield* Collections
        const fields = yield* CustomFields
        const { organization, run } = yield* adminOfNewOrganization
        yield* run(fields.create(organization.id, { name: "tier", type: "select", options: ["gold", "silver"] }))
        yield* run(fields.create(organization.id, { name: "pages", type: "number" }))
        const s = yield* run(content.create(organization.id, { title: "S" }))
        const bad = yield* Effect.either(
          run(fields.setValues(s.space.id, new Map([["pages", { value: 3 }], ["tier", { value: "bronze" }]])))
        )
        expect(failureTag(bad)).toBe("InvalidInput")
        expect((yield* run(fields.valuesOf(s.space.id))).every((v) => v.value === undefined)).toBe(true)
        yield* run(fields.setValues(s.space.id, new Map([["pages", { value: 3 }], ["tier", { value: "gold" }]])))
        const values = yield* run(fields.valuesOf(s.space.id))
        const byName = (list: ReadonlyArray<{ customField: { name: string }; value?: unknown }>) =>
          list.map((v) => [v.customField.name, v.value]).sort()
        expect(byName(values)).toEqual([["pages", 3], ["tier", "gold"]])
        const copy = yield* run(lifecycle.duplicate(s.space.id))
        expect(byName(yield* run(fields.valuesOf(copy.space.id)))).toEqual([["pages", 3], ["tier", "gold"]])
        const shelf = yield* run(collections.create(organization.id, { title: "Shelf" }))
        yield* run(placement.transfer(copy.space.id, { organization: organization.id, collection: shelf.collection.id }))
        expect(byName(yield* run(fields.valuesOf(copy.space.id)))).toEqual([["pages", 3], ["tier", "gold"]])
      }))
  })
