import {
  CollectionRepository,
  conflicts,
  CustomFieldRepository,
  type Keyset,
  pageInMemory,
  type PageRequest,
  type ParentFilter,
  RevisionRepository,
  SiblingRepository,
  SpaceRepository
} from "@octavo/domain"
import { Effect, HashMap, Layer, Option } from "effect"
import { MemoryStore, pairKey, replace, values } from "./Store.js"


interface TreeItem {
  readonly id: string
  readonly organizationId: string
  readonly parentId: string | null
  readonly position: string
  readonly createdAt: Date
}

/** Lists tree items by the filter's keyset: creation for "all", sibling order for "children". */
const listTree = <A extends TreeItem>(items: ReadonlyArray<A>, organizationId: string, filter: ParentFilter, page: PageRequest) => {
  const mine = items.filter((i) => i.organizationId === organizationId)
  return filter._tag === "all"
    ? pageInMemory(mine, (i): Keyset => [i.createdAt.getTime(), i.id], filter.order ?? "asc", page)
    : pageInMemory(mine.filter((i) => i.parentId === filter.parentId), (i): Keyset => [i.position, i.id], "asc", page)
}

export const MemoryCollectionRepository = Layer.effect(
  CollectionRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (c) => store.write((s) => [undefined, { ...s, collections: HashMap.set(s.collections, c.id, c) }] as const),
    update: (c) => store.write((s) => [undefined, { ...s, collections: replace(s.collections, c.id, c) }] as const),
    delete: (id) => store.write((s) => [undefined, { ...s, collections: HashMap.remove(s.collections, id) }] as const),
    findById: (id) => store.read((s) => HashMap.get(s.collections, id)),
    list: (organizationId, filter, page) => store.read((s) => listTree(values(s.collections), organizationId, filter, page)),
    listAll: (organizationId) => store.read((s) => values(s.collections).filter((c) => c.organizationId === organizationId))
  }))
)

export const MemorySpaceRepository = Layer.effect(
  SpaceRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (space) => store.write((s) => [undefined, { ...s, spaces: HashMap.set(s.spaces, space.id, space) }] as const),
    update: (space) =>
      store.write((s) => {
        const held = HashMap.get(s.spaces, space.id)
        if (Option.isNone(held)) return [undefined, s] as const
        return [undefined, { ...s, spaces: HashMap.set(s.spaces, space.id, { ...space, revisionId: held.value.revisionId }) }] as const
      }),
    setRevision: (id, revisionId, updatedAt) =>
      store.write((s) => {
        const held = HashMap.get(s.spaces, id)
        if (Option.isNone(held)) return [undefined, s] as const
        return [undefined, { ...s, spaces: HashMap.set(s.spaces, id, { ...held.value, revisionId, updatedAt }) }] as const
      }),
    lock: () => Effect.void,
    delete: (id) =>
      store.write((s) => [undefined, {
        ...s,
        spaces: HashMap.remove(s.spaces, id),
        revisions: HashMap.filter(s.revisions, (r) => r.spaceId !== id),
        customFieldValues: HashMap.filter(s.customFieldValues, (v) => v.spaceId !== id)
      }] as const),
    findById: (id) => store.read((s) => HashMap.get(s.spaces, id)),
    list: (organizationId, filter, page) =>
      store.read((s) => listTree(values(s.spaces).filter((sp) => sp.deletedAt === undefined), organizationId, filter, page)),
    listInCollections: (ids) =>
      store.read((s) => values(s.spaces).filter((sp) => sp.parentId !== null && ids.includes(sp.parentId))),
    listDeletedBefore: (cutoff, limit) =>
      store.read((s) =>
        values(s.spaces)
          .filter((sp) => sp.deletedAt !== undefined && sp.deletedAt.getTime() <= cutoff.getTime())
          .sort((a, b) => (a.deletedAt?.getTime() ?? 0) - (b.deletedAt?.getTime() ?? 0) || (a.id < b.id ? -1 : 1))
          .slice(0, limit)
      )
  }))
)

export const MemorySiblingRepository = Layer.effect(
  SiblingRepository,
  Effect.map(MemoryStore, (store) => ({
    childrenOf: (organizationId, parentId) =>
      store.read((s) =>
        [...values(s.collections), ...values(s.spaces)]
          .filter((i) => i.organizationId === organizationId && i.parentId === parentId)
          .map((i) => ({ id: i.id as string, position: i.position }))
      )
  }))
)

export const MemoryRevisionRepository = Layer.effect(
  RevisionRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (revision) => store.write((s) => [undefined, { ...s, revisions: HashMap.set(s.revisions, revision.id, revision) }] as const),
    findById: (id) => store.read((s) => HashMap.get(s.revisions, id))
  }))
)

export const MemoryCustomFieldRepository = Layer.effect(
  CustomFieldRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (field) =>
      store.write((s) =>
        HashMap.some(s.customFields, (f) => f.organizationId === field.organizationId && f.name === field.name)
          ? Effect.fail(conflicts.customFieldTaken(field.name))
          : Effect.succeed([undefined, { ...s, customFields: HashMap.set(s.customFields, field.id, field) }] as const)
      ),
    update: (field) => store.write((s) => [undefined, { ...s, customFields: replace(s.customFields, field.id, field) }] as const),
    delete: (id) =>
      store.write((s) => [undefined, {
        ...s,
        customFields: HashMap.remove(s.customFields, id),
        customFieldValues: HashMap.filter(s.customFieldValues, (v) => v.fieldId !== id)
      }] as const),
    findByName: (organizationId, name) =>
      store.read((s) =>
        HashMap.findFirst(s.customFields, (f) => f.organizationId === organizationId && f.name === name).pipe(Option.map(([, f]) => f))
      ),
    list: (organizationId, page) =>
      store.read((s) =>
        pageInMemory(
          values(s.customFields).filter((f) => f.organizationId === organizationId),
          (f): Keyset => [f.createdAt.getTime(), f.id],
          "asc",
          page
        )
      ),
    listAll: (organizationId) =>
      store.read((s) =>
        values(s.customFields)
          .filter((f) => f.organizationId === organizationId)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      ),
    valuesOf: (spaceId) =>
      store.read((s) =>
        new Map(values(s.customFieldValues).filter((v) => v.spaceId === spaceId).map((v) => [v.fieldId, v.value]))
      ),
    setValues: (spaceId, writes) =>
      store.write((s) => {
        let next = s.customFieldValues
        for (const [fieldId, value] of writes) {
          const key = pairKey(spaceId, fieldId)
          next = value === null ? HashMap.remove(next, key) : HashMap.set(next, key, { spaceId, fieldId, value })
        }
        return [undefined, { ...s, customFieldValues: next }] as const
      })
  }))
)
