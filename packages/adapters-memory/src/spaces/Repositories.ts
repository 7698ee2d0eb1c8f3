import {
  type Collection,
  CollectionRepository,
  conflicts,
  CustomFieldRepository,
  type ItemForAccess,
  type Keyset,
  pageInMemory,
  type PageRequest,
  type ParentFilter,
  RevisionRepository,
  SiblingRepository,
  SpaceRepository
} from "@octavo/domain"
import { Effect, HashMap, Option } from "effect"
import { membershipIn } from "../organizations/index.js"
import {
  byCreation,
  byId,
  change,
  inOrganization,
  layerOver,
  pairKey,
  type Snapshot,
  sortedBy,
  type Table,
  unique
} from "../shared/index.js"
import { SpacesState } from "./State.js"

interface TreeItem {
  readonly id: string
  readonly parentId: string | null
  readonly position: string
  readonly createdAt: Date
}

/** Lists one organization's tree items by the filter's keyset: creation for "all", sibling order for "children". */
const listTree = <A extends TreeItem>(mine: ReadonlyArray<A>, filter: ParentFilter, page: PageRequest) =>
  filter._tag === "all"
    ? pageInMemory(mine, byCreation, filter.order ?? "asc", page)
    : pageInMemory(mine.filter((i) => i.parentId === filter.parentId), (i): Keyset => [i.position, i.id], "asc", page)

/** An item of an organization with the user's membership and, for a member, the organization's collections. */
const forAccess = <A extends { readonly organizationId: string }>(
  state: Snapshot,
  collections: Table<Collection>,
  item: A,
  userId: string
): ItemForAccess<A> => {
  const membership = membershipIn(state, item.organizationId, userId)
  return {
    item,
    membership,
    collections: Option.isSome(membership)
      ? sortedBy(collections.valuesIn(state).filter(inOrganization(item.organizationId)), byCreation)
      : []
  }
}

export const MemoryCollectionRepository = layerOver(CollectionRepository, SpacesState, ({ collections }, store) => ({
  ...byId(collections),
  findForAccess: (id, userId) =>
    store.read((state) => Option.map(HashMap.get(collections.in(state), id), (c) => forAccess(state, collections, c, userId))),
  list: (organizationId, filter, page) =>
    Effect.map(collections.filter(inOrganization(organizationId)), (mine) => listTree(mine, filter, page)),
  listAll: (organizationId) => collections.filter(inOrganization(organizationId)),
  listForMember: (organizationId, userId) =>
    store.read((state) =>
      Option.map(membershipIn(state, organizationId, userId), (membership) => ({
        membership,
        collections: sortedBy(collections.valuesIn(state).filter(inOrganization(organizationId)), byCreation)
      }))
    )
}))

export const MemorySpaceRepository = layerOver(SpaceRepository, SpacesState, ({ collections, spaces }, store) => ({
  ...byId(spaces),
  findForAccess: (id, userId) =>
    store.read((state) => Option.map(HashMap.get(spaces.in(state), id), (space) => forAccess(state, collections, space, userId))),
  // The active revision moves only through setRevision.
  update: (space) => spaces.modify(space.id, (held) => ({ ...space, revisionId: held.revisionId })),
  setRevision: (id, revisionId, updatedAt) => spaces.modify(id, (held) => ({ ...held, revisionId, updatedAt })),
  lock: () => Effect.void,
  delete: (id) =>
    change(store, SpacesState, (s) => ({
      ...s,
      spaces: HashMap.remove(s.spaces, id),
      revisions: HashMap.filter(s.revisions, (r) => r.spaceId !== id),
      customFieldValues: HashMap.filter(s.customFieldValues, (v) => v.spaceId !== id)
    })),
  list: (organizationId, filter, page) =>
    Effect.map(
      spaces.filter((sp) => sp.organizationId === organizationId && sp.deletedAt === undefined),
      (mine) => listTree(mine, filter, page)
    ),
  listInCollections: (ids) => spaces.filter((sp) => sp.parentId !== null && ids.includes(sp.parentId)),
  findMany: (ids) => {
    const wanted = new Set<string>(ids)
    return spaces.filter((sp) => wanted.has(sp.id))
  },
  listDeletedBefore: (cutoff, limit) =>
    Effect.map(
      spaces.filter((sp) => sp.deletedAt !== undefined && sp.deletedAt.getTime() <= cutoff.getTime()),
      (deleted) => sortedBy(deleted, (sp): Keyset => [sp.deletedAt?.getTime() ?? 0, sp.id]).slice(0, limit)
    )
}))

export const MemorySiblingRepository = layerOver(SiblingRepository, SpacesState, ({ collections, spaces }, store) => ({
  childrenOf: (organizationId, parentId) =>
    store.read((state) =>
      [...collections.valuesIn(state), ...spaces.valuesIn(state)]
        .filter((i) => i.organizationId === organizationId && i.parentId === parentId)
        .map((i) => ({ id: i.id as string, position: i.position }))
    )
}))

export const MemoryRevisionRepository = layerOver(RevisionRepository, SpacesState, ({ revisions }) => ({
  insert: (revision) => revisions.insert(revision.id, revision),
  findById: revisions.get
}))

export const MemoryCustomFieldRepository = layerOver(
  CustomFieldRepository,
  SpacesState,
  ({ customFields, customFieldValues }, store) => ({
    ...byId(customFields),
    insert: (field) =>
      customFields.insert(
        field.id,
        field,
        unique((f) => f.organizationId === field.organizationId && f.name === field.name, () => conflicts.customFieldTaken(field.name))
      ),
    delete: (id) =>
      change(store, SpacesState, (s) => ({
        ...s,
        customFields: HashMap.remove(s.customFields, id),
        customFieldValues: HashMap.filter(s.customFieldValues, (v) => v.fieldId !== id)
      })),
    findByName: (organizationId, name) => customFields.find((f) => f.organizationId === organizationId && f.name === name),
    list: (organizationId, page) => customFields.page(inOrganization(organizationId), byCreation, "asc", page),
    listAll: (organizationId) => Effect.map(customFields.filter(inOrganization(organizationId)), (mine) => sortedBy(mine, byCreation)),
    valuesOf: (spaceId) =>
      Effect.map(
        customFieldValues.filter((v) => v.spaceId === spaceId),
        (held) => new Map(held.map((v) => [v.fieldId, v.value]))
      ),
    setValues: (spaceId, writes) =>
      customFieldValues.update((held) => {
        let next = held
        for (const [fieldId, value] of writes) {
          const key = pairKey(spaceId, fieldId)
          next = value === null ? HashMap.remove(next, key) : HashMap.set(next, key, { spaceId, fieldId, value })
        }
        return next
      })
  })
)
