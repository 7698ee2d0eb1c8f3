import { describe, expect, layer } from "@effect/vitest"
import {
  type Collection,
  CollectionRepository,
  type CustomFieldId,
  CustomFieldRepository,
  type CustomFieldValue,
  type Keyset,
  OrganizationRepository,
  type PageRequest,
  pageInMemory,
  type ParentFilter,
  RevisionRepository,
  SiblingRepository,
  type Space,
  SpaceRepository,
  type StoragePorts,
  UnitOfWork
} from "@octavo/domain"
import { Effect, Either, type Layer, Option } from "effect"
import * as F from "./fixtures.js"
import { storages, walkPages } from "./helpers.js"

interface TreeItem {
  readonly id: string
  readonly organizationId: string
  readonly parentId: string | null
  readonly position: string
  readonly createdAt: Date
}

/** The reference list of a ParentFilter, as the memory adapter computes it. */
const referenceOf = <A extends TreeItem>(items: ReadonlyArray<A>, organization: string, filter: ParentFilter) => {
  const mine = items.filter((i) => i.organizationId === organization)
  return (request: PageRequest) =>
    filter._tag === "all"
      ? pageInMemory(mine, (i): Keyset => [i.createdAt.getTime(), i.id], "asc", request)
      : pageInMemory(mine.filter((i) => i.parentId === filter.parentId), (i): Keyset => [i.position, i.id], "asc", request)
}

const first = (limit = 1000): PageRequest => ({ limit, after: Option.none() })

const suite = (name: string, makeLayer: () => Layer.Layer<StoragePorts>) =>
  layer(makeLayer(), { timeout: "60 seconds" })(name, (it) => {
    describe("tree listings", () => {
      const org = "tree-org"
      const other = "tree-other"
      const next = F.random(7)
      // Mixed-case keys: "C" order puts digits, then upper case, then lower case ("Z" < "a").
      const positions = ["V", "VV", "W0V", "a", "Z", "0V", "z", "Vz", "W", "V0V"]
      const randomId = (prefix: string, taken: Set<string>) => {
        for (;;) {
          let id = prefix
          const length = 1 + Math.floor(next() * 2)
          for (let i = 0; i < length; i++) id += F.pick(next, [..."ABab09_-zZ"])
          if (!taken.has(id)) {
            taken.add(id)
            return id
          }
        }
      }
      const parents = [F.collection(org, "tc-P", { position: "V" }), F.collection(org, "tc-p", { position: "a" })]
      const parentIds = [null, ...parents.map((c) => c.id)]
      const collectionIds = new Set(parents.map((c) => c.id as string))
      const spaceIds = new Set<string>()
      const collections: Array<Collection> = [
        ...parents,
        ...Array.from({ length: 16 }, () =>
          F.collection(org, randomId("tc-", collectionIds), {
            parentId: F.pick(next, parentIds),
            position: F.pick(next, positions),
            createdAt: new Date(F.pick(next, [1_000, 2_000, 3_000]))
          })),
        // Another organization's items, some under this organization's parents, are never listed here.
        F.collection(other, "tc-other", { position: "V" }),
        F.collection(other, "tc-other-in", { parentId: F.collectionId("tc-P"), position: "V" })
      ]
      const spaces: Array<Space> = [
        ...Array.from({ length: 40 }, () => {
          const deletedAt = F.pick(next, [undefined, undefined, undefined, 5_000])
          return F.space(org, randomId("ts-", spaceIds), {
            parentId: F.pick(next, parentIds),
            position: F.pick(next, positions),
            createdAt: new Date(F.pick(next, [1_000, 2_000, 3_000])),
            ...(deletedAt === undefined ? {} : { deletedAt: new Date(deletedAt) })
          })
        }),
        F.space(other, "ts-other", { position: "V" }),
        F.space(other, "ts-other-in", { parentId: F.collectionId("tc-P"), position: "W" })
      ]
      const alive = spaces.filter((s) => s.deletedAt === undefined)
      const filters: ReadonlyArray<ParentFilter> = [
        { _tag: "all" },
        ...parentIds.map((parentId): ParentFilter => ({ _tag: "children", parentId })),
        { _tag: "children", parentId: F.collectionId("tc-missing") }
      ]

      const seed = Effect.gen(function*() {
        const organizations = yield* OrganizationRepository
        if (Option.isSome(yield* organizations.findById(F.organizationId(org)))) return
        yield* organizations.insert(F.organization(org))
        yield* organizations.insert(F.organization(other))
        const collectionRepository = yield* CollectionRepository
        const spaceRepository = yield* SpaceRepository
        for (const c of collections) yield* collectionRepository.insert(c)
        for (const s of spaces) yield* spaceRepository.insert(s)
      })

      it.effect("pages collections and live spaces exactly like pageInMemory for both filters", () =>
        Effect.gen(function*() {
          yield* seed
          const collectionRepository = yield* CollectionRepository
          const spaceRepository = yield* SpaceRepository
          // The seed has ties: several items share a position or a creation time.
          expect(new Set(spaces.map((s) => s.position)).size).toBeLessThan(spaces.length)
          let walks = 0
          for (const filter of filters) {
            for (const limit of [1, 3, 1000]) {
              yield* walkPages(
                (request) => collectionRepository.list(F.organizationId(org), filter, request),
                referenceOf(collections, org, filter),
                limit
              )
              yield* walkPages(
                (request) => spaceRepository.list(F.organizationId(org), filter, request),
                referenceOf(alive, org, filter),
                limit
              )
              walks++
            }
          }
          expect(walks).toBe(5 * 3)
          const top = yield* spaceRepository.list(F.organizationId(org), { _tag: "children", parentId: null }, first())
          expect(top.count).toBe(alive.filter((s) => s.organizationId === org && s.parentId === null).length)
          expect(top.items.map((s) => s.position)).toEqual([...top.items.map((s) => s.position)].sort())
        }))

      it.effect("starts after any keyset, including order keys and ids that no item has", () =>
        Effect.gen(function*() {
          yield* seed
          const collectionRepository = yield* CollectionRepository
          const spaceRepository = yield* SpaceRepository
          const keyKeysets: Array<Keyset> = [
            ["V", ""],
            ["V", "ts-Z"],
            ["VV", "zzz"],
            ["W0", "A"],
            ["W0V", "ts-a"],
            ["Z", "~"],
            ["a", ""],
            ["", ""],
            ["zz", ""],
            // A number where an order key belongs sorts before every (non-numeric) key.
            [5, "x"]
          ]
          const timeKeysets: Array<Keyset> = [[2_000, "tc-B"], [2_000, "ts-a"], [0, ""], [9_999, "A"], [1_999, "zzz"], ["2000", "x"]]
          for (const filter of filters) {
            for (const after of filter._tag === "all" ? timeKeysets : keyKeysets) {
              const request = { limit: 4, after: Option.some(after) }
              expect(yield* collectionRepository.list(F.organizationId(org), filter, request))
                .toEqual(referenceOf(collections, org, filter)(request))
              expect(yield* spaceRepository.list(F.organizationId(org), filter, request))
                .toEqual(referenceOf(alive, org, filter)(request))
            }
          }
        }))

      it.effect("lists the children of a parent, collections and spaces together, soft-deleted spaces included", () =>
        Effect.gen(function*() {
          yield* seed
          const siblings = yield* SiblingRepository
          for (const parentId of [...parentIds, F.collectionId("tc-missing")]) {
            const expected = [...collections, ...spaces]
              .filter((i) => i.organizationId === org && i.parentId === parentId)
              .map((i) => ({ id: i.id as string, position: i.position }))
              .sort((a, b) => a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1)
            expect(yield* siblings.childrenOf(F.organizationId(org), parentId)).toEqual(expected)
          }
          expect(yield* siblings.childrenOf(F.organizationId(other), F.collectionId("tc-P"))).toEqual([
            { id: "tc-other-in", position: "V" },
            { id: "ts-other-in", position: "W" }
          ])
          expect(yield* siblings.childrenOf(F.organizationId("tree-nobody"), null)).toEqual([])
        }))

      it.effect("lists every collection of an organization and the spaces of collections, deleted ones too", () =>
        Effect.gen(function*() {
          yield* seed
          const collectionRepository = yield* CollectionRepository
          const spaceRepository = yield* SpaceRepository
          const byCreation = <A extends TreeItem>(items: ReadonlyArray<A>) =>
            [...items].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
          expect(yield* collectionRepository.listAll(F.organizationId(org)))
            .toEqual(byCreation(collections.filter((c) => c.organizationId === org)))
          const held = yield* spaceRepository.listInCollections([F.collectionId("tc-P"), F.collectionId("tc-missing")])
          expect(held).toEqual(byCreation(spaces.filter((s) => s.parentId === "tc-P")))
          expect(held.some((s) => s.deletedAt !== undefined)).toBe(true)
          expect(held.some((s) => s.organizationId === other)).toBe(true)
          expect(yield* spaceRepository.listInCollections([])).toEqual([])
          const deleted = spaces.find((s) => s.deletedAt !== undefined)!
          expect(yield* spaceRepository.findById(deleted.id)).toEqual(Option.some(deleted))
        }))
    })

    describe("collections", () => {
      it.effect("round-trips a collection, leaving an absent description absent, and deletes it", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const collections = yield* CollectionRepository
          yield* organizations.insert(F.organization("coll-org"))
          yield* organizations.insert(F.organization("coll-target"))
          const plain = F.collection("coll-org", "coll-plain", { createdAt: new Date(1_700_000_000_123) })
          const described = F.collection("coll-org", "coll-described", {
            description: "About things",
            parentId: plain.id,
            position: "W0V",
            defaultLevel: "edit",
            updatedAt: new Date(1_700_000_000_456)
          })
          yield* collections.insert(plain)
          yield* collections.insert(described)
          const found = Option.getOrThrow(yield* collections.findById(plain.id))
          expect(found).toEqual(plain)
          expect(Object.keys(found)).not.toContain("description")
          expect(yield* collections.findById(described.id)).toEqual(Option.some(described))

          // A transfer moves it to another organization's top; a cleared description is absent again.
          const { description: _, ...withoutDescription } = described
          const moved: Collection = {
            ...withoutDescription,
            organizationId: F.organizationId("coll-target"),
            parentId: null,
            position: "a",
            title: "Moved"
          }
          yield* collections.update(moved)
          const foundMoved = Option.getOrThrow(yield* collections.findById(described.id))
          expect(foundMoved).toEqual(moved)
          expect(Object.keys(foundMoved)).not.toContain("description")
          expect((yield* collections.listAll(F.organizationId("coll-org"))).map((c) => c.id)).toEqual([plain.id])

          yield* collections.delete(plain.id)
          expect(yield* collections.findById(plain.id)).toEqual(Option.none())
          expect(yield* collections.findById(F.collectionId("coll-nobody"))).toEqual(Option.none())
        }))
    })

    describe("spaces", () => {
      it.effect("round-trips a space, soft-deletes and restores it", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const spaces = yield* SpaceRepository
          yield* organizations.insert(F.organization("space-org"))
          const original = F.space("space-org", "space-1", {
            parentId: F.collectionId("space-parent"),
            position: "VV",
            title: "Guide",
            emoji: "📘",
            visibility: "in-collection",
            editMode: "locked",
            defaultLevel: "comment",
            createdAt: new Date(1_700_000_000_001),
            updatedAt: new Date(1_700_000_000_002)
          })
          yield* spaces.insert(original)
          const found = Option.getOrThrow(yield* spaces.findById(original.id))
          expect(found).toEqual(original)
          expect(Object.keys(found)).not.toContain("deletedAt")

          const listed = (parentId: Space["parentId"]) =>
            Effect.map(
              spaces.list(F.organizationId("space-org"), { _tag: "children", parentId }, first()),
              (page) => [page.items.map((s) => s.id), page.count] as const
            )
          expect(yield* listed(original.parentId)).toEqual([[original.id], 1])

          const deleted: Space = { ...original, deletedAt: new Date(1_700_000_000_003) }
          yield* spaces.update(deleted)
          expect(yield* spaces.findById(original.id)).toEqual(Option.some(deleted))
          expect(yield* listed(original.parentId)).toEqual([[], 0])
          const all = yield* spaces.list(F.organizationId("space-org"), { _tag: "all" }, first())
          expect([all.items, all.count]).toEqual([[], 0])

          const { deletedAt: _, ...restored } = { ...deleted, parentId: null, visibility: "private" as const }
          yield* spaces.update(restored)
          const foundRestored = Option.getOrThrow(yield* spaces.findById(original.id))
          expect(foundRestored).toEqual(restored)
          expect(Object.keys(foundRestored)).not.toContain("deletedAt")
          expect(yield* listed(null)).toEqual([[original.id], 1])
        }))

      it.effect("lists soft-deleted spaces deleted at or before a cutoff, oldest first, at most `limit`", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const spaces = yield* SpaceRepository
          yield* organizations.insert(F.organization("purge-org"))
          // Far in the past, so that other tests' deleted spaces come after these.
          const made = [
            F.space("purge-org", "purge-b", { deletedAt: new Date(20) }),
            F.space("purge-org", "purge-A", { deletedAt: new Date(20) }),
            F.space("purge-org", "purge-a", { deletedAt: new Date(10) }),
            F.space("purge-org", "purge-late", { deletedAt: new Date(31) }),
            F.space("purge-org", "purge-alive")
          ]
          for (const s of made) yield* spaces.insert(s)
          const ids = (cutoff: number, limit: number) =>
            Effect.map(spaces.listDeletedBefore(new Date(cutoff), limit), (found) => found.map((s) => s.id as string))
          expect(yield* ids(30, 100)).toEqual(["purge-a", "purge-A", "purge-b"])
          expect(yield* ids(20, 2)).toEqual(["purge-a", "purge-A"])
          expect(yield* ids(19, 100)).toEqual(["purge-a"])
          expect(yield* ids(9, 100)).toEqual([])
          expect((yield* spaces.listDeletedBefore(new Date(30), 100))[0]).toEqual(made[2])
        }))

      it.effect("deletes a space for good with its revisions and custom field values, and nothing else", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const spaces = yield* SpaceRepository
          const revisions = yield* RevisionRepository
          const fields = yield* CustomFieldRepository
          yield* organizations.insert(F.organization("gone-org"))
          const field = F.customField("gone-org", "gone-field")
          yield* fields.insert(field)
          for (const id of ["gone-space", "gone-kept"]) {
            yield* spaces.insert(F.space("gone-org", id))
            yield* revisions.insert(F.revision(id, `${id}-r1`))
            yield* revisions.insert(F.revision(id, `${id}-r2`, { parents: [F.revisionId(`${id}-r1`)] }))
            yield* fields.setValues(F.spaceId(id), new Map([[field.id, `value of ${id}`]]))
          }
          yield* spaces.delete(F.spaceId("gone-space"))
          expect(yield* spaces.findById(F.spaceId("gone-space"))).toEqual(Option.none())
          expect(yield* revisions.findById(F.revisionId("gone-space-r1"))).toEqual(Option.none())
          expect(yield* revisions.findById(F.revisionId("gone-space-r2"))).toEqual(Option.none())
          expect((yield* fields.valuesOf(F.spaceId("gone-space"))).size).toBe(0)

          expect(Option.isSome(yield* spaces.findById(F.spaceId("gone-kept")))).toBe(true)
          expect(Option.isSome(yield* revisions.findById(F.revisionId("gone-kept-r2")))).toBe(true)
          expect(yield* fields.valuesOf(F.spaceId("gone-kept"))).toEqual(new Map([[field.id, "value of gone-kept"]]))
          // Deleting what is not there changes nothing.
          yield* spaces.delete(F.spaceId("gone-space"))
        }))

      it.effect("writes a space and its first revision in either order within a unit of work", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const spaces = yield* SpaceRepository
          const revisions = yield* RevisionRepository
          const collections = yield* CollectionRepository
          const unitOfWork = yield* UnitOfWork
          yield* organizations.insert(F.organization("order-org"))
          yield* unitOfWork.transaction(Effect.gen(function*() {
            // A space under a collection written later in the same unit of work.
            yield* spaces.insert(F.space("order-org", "order-space", { parentId: F.collectionId("order-parent") }))
            yield* revisions.insert(F.revision("order-space", "order-space-r1"))
            yield* collections.insert(F.collection("order-org", "order-parent"))
          }))
          expect(Option.isSome(yield* spaces.findById(F.spaceId("order-space")))).toBe(true)
          expect(Option.isSome(yield* collections.findById(F.collectionId("order-parent")))).toBe(true)
        }))
    })

    describe("revisions", () => {
      it.effect("round-trips a revision with its parents in order", () =>
        Effect.gen(function*() {
          const revisions = yield* RevisionRepository
          const root = F.revision("rev-space", "rev-root", { createdAt: new Date(1_700_000_000_777) })
          const merge = F.revision("rev-space", "rev-merge", {
            type: "merge",
            parents: [F.revisionId("rev-z"), F.revisionId("rev-root"), F.revisionId("rev-A")]
          })
          yield* revisions.insert(root)
          yield* revisions.insert(merge)
          expect(yield* revisions.findById(root.id)).toEqual(Option.some(root))
          expect(yield* revisions.findById(merge.id)).toEqual(Option.some(merge))
          expect(yield* revisions.findById(F.revisionId("rev-nobody"))).toEqual(Option.none())
        }))
    })

    describe("custom fields", () => {
      it.effect("round-trips fields, absent optional fields staying absent, and lists them page by page", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const fields = yield* CustomFieldRepository
          yield* organizations.insert(F.organization("cf-org"))
          yield* organizations.insert(F.organization("cf-other"))
          const made = Array.from(
            { length: 9 },
            (_, i) => F.customField("cf-org", `cf-${"zZaA".charAt(i % 4)}${i}`, { createdAt: new Date(10 * (i % 3)) })
          )
          const full = F.customField("cf-org", "cf-full", {
            name: "audience",
            type: "multi-select",
            title: "Audience",
            description: "Who reads it",
            placeholder: "Pick some",
            options: ["devs", "ops", "Devs"],
            createdAt: new Date(5)
          })
          for (const f of [...made, full]) yield* fields.insert(f)
          yield* fields.insert(F.customField("cf-other", "cf-elsewhere", { name: "audience" }))

          const plain = Option.getOrThrow(yield* fields.findByName(F.organizationId("cf-org"), made[0]!.name))
          expect(plain).toEqual(made[0])
          for (const key of ["title", "description", "placeholder", "options"]) expect(Object.keys(plain)).not.toContain(key)
          expect(yield* fields.findByName(F.organizationId("cf-org"), "audience")).toEqual(Option.some(full))
          expect((yield* fields.findByName(F.organizationId("cf-other"), "audience")).pipe(Option.map((f) => f.id)))
            .toEqual(Option.some("cf-elsewhere"))
          expect(yield* fields.findByName(F.organizationId("cf-org"), "nothing")).toEqual(Option.none())

          const all = [...made, full]
          const keysetOf = (f: (typeof all)[number]): Keyset => [f.createdAt.getTime(), f.id]
          expect(
            yield* walkPages(
              (request) => fields.list(F.organizationId("cf-org"), request),
              (request) => pageInMemory(all, keysetOf, "asc", request),
              4
            )
          ).toBe(10)
          expect(yield* fields.listAll(F.organizationId("cf-org"))).toEqual(pageInMemory(all, keysetOf, "asc", first()).items)

          const { options: _, placeholder: __, ...cleared } = { ...full, title: "Readers", updatedAt: new Date(99) }
          yield* fields.update(cleared)
          const foundCleared = Option.getOrThrow(yield* fields.findByName(F.organizationId("cf-org"), "audience"))
          expect(foundCleared).toEqual(cleared)
          for (const key of ["placeholder", "options"]) expect(Object.keys(foundCleared)).not.toContain(key)
        }))

      it.effect("refuses a taken name or id with a Conflict, even inside a unit of work that goes on", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const fields = yield* CustomFieldRepository
          const unitOfWork = yield* UnitOfWork
          yield* organizations.insert(F.organization("cf-clash"))
          yield* fields.insert(F.customField("cf-clash", "cf-clash-1", { name: "tier" }))
          const sameName = yield* Effect.flip(fields.insert(F.customField("cf-clash", "cf-clash-2", { name: "tier" })))
          expect(sameName.reason).toBe("A custom field named tier exists already")
          const sameId = yield* Effect.flip(fields.insert(F.customField("cf-clash", "cf-clash-1", { name: "other" })))
          expect(sameId.reason).toBe("A custom field with id cf-clash-1 exists already")

          const result = yield* unitOfWork.transaction(Effect.gen(function*() {
            const clash = yield* Effect.either(fields.insert(F.customField("cf-clash", "cf-clash-3", { name: "tier" })))
            yield* fields.insert(F.customField("cf-clash", "cf-clash-4", { name: "after" }))
            return clash
          }))
          expect(Either.isLeft(result)).toBe(true)
          expect((yield* fields.listAll(F.organizationId("cf-clash"))).map((f) => f.id)).toEqual(["cf-clash-1", "cf-clash-4"])
        }))

      it.effect("sets, replaces and clears values of every kind, and drops a field's values with it", () =>
        Effect.gen(function*() {
          const organizations = yield* OrganizationRepository
          const fields = yield* CustomFieldRepository
          yield* organizations.insert(F.organization("cf-values"))
          const [text, number, flag, multi] = (["text", "number", "boolean", "multi-select"] as const).map((type) =>
            F.customField("cf-values", `cf-values-${type}`, { type })
          )
          for (const f of [text!, number!, flag!, multi!]) yield* fields.insert(f)
          const s = F.spaceId("cf-values-space")
          const other = F.spaceId("cf-values-other")
          const values = new Map<CustomFieldId, CustomFieldValue>([
            [text!.id, "Ünïcode \"quoted\" \\ text"],
            [number!.id, 0.1 + 0.2],
            [flag!.id, false],
            [multi!.id, ["b", "a", "b"]]
          ])
          yield* fields.setValues(s, values)
          yield* fields.setValues(other, new Map<CustomFieldId, CustomFieldValue>([[text!.id, "other"], [multi!.id, []]]))
          expect(yield* fields.valuesOf(s)).toEqual(values)
          expect(yield* fields.valuesOf(other)).toEqual(new Map<CustomFieldId, CustomFieldValue>([[text!.id, "other"], [multi!.id, []]]))

          // One write replaces some values, clears others, and leaves the rest.
          yield* fields.setValues(
            s,
            new Map<CustomFieldId, CustomFieldValue | null>([[number!.id, -1e21], [flag!.id, null], [text!.id, "12"]])
          )
          expect(yield* fields.valuesOf(s)).toEqual(
            new Map<CustomFieldId, CustomFieldValue>([
              [text!.id, "12"],
              [number!.id, -1e21],
              [multi!.id, ["b", "a", "b"]]
            ])
          )
          // Clearing what is not set, and an empty write, change nothing.
          yield* fields.setValues(s, new Map([[flag!.id, null]]))
          yield* fields.setValues(s, new Map())
          expect((yield* fields.valuesOf(s)).size).toBe(3)

          yield* fields.delete(text!.id)
          expect(yield* fields.findByName(F.organizationId("cf-values"), text!.name)).toEqual(Option.none())
          expect(yield* fields.valuesOf(s)).toEqual(
            new Map<CustomFieldId, CustomFieldValue>([
              [number!.id, -1e21],
              [multi!.id, ["b", "a", "b"]]
            ])
          )
          expect(yield* fields.valuesOf(other)).toEqual(new Map<CustomFieldId, CustomFieldValue>([[multi!.id, []]]))
          expect((yield* fields.valuesOf(F.spaceId("cf-values-nothing"))).size).toBe(0)
        }))
    })
  })

for (const [name, makeLayer] of storages) suite(name, makeLayer)
