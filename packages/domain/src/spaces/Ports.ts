import { Context, Effect, type Option } from "effect"
import type { Conflict } from "../shared/Errors.js"
import type { Membership } from "../organizations/Access.js"
import type { CollectionId, CustomFieldId, OrganizationId, RevisionId, SpaceId, UserId } from "../shared/Ids.js"
import type { Order, Page, PageRequest } from "../shared/Pagination.js"
import type { Collection, CustomField, CustomFieldValue, Revision, Space } from "./Space.js"

/**
 * Which items of an organization a list holds: all of them (keyset (createdAt ms, id), ascending unless `order` says otherwise),
 * or the children of one parent, null for the top (keyset (position, id), the siblings' order).
 */
export type ParentFilter =
  | { readonly _tag: "all"; readonly order?: Order | undefined }
  | { readonly _tag: "children"; readonly parentId: CollectionId | null }

export class CollectionRepository extends Context.Tag("@octavo/domain/CollectionRepository")<CollectionRepository, {
  readonly insert: (collection: Collection) => Effect.Effect<void>
  readonly update: (collection: Collection) => Effect.Effect<void>
  readonly delete: (id: CollectionId) => Effect.Effect<void>
  readonly findById: (id: CollectionId) => Effect.Effect<Option.Option<Collection>>
  /** A collection with the user's membership of its organization and, for a member, every collection of it (as `listAll`). */
  readonly findForAccess: (id: CollectionId, userId: UserId) => Effect.Effect<Option.Option<ItemForAccess<Collection>>>
  /** Ascending by the filter's keyset. */
  readonly list: (organizationId: OrganizationId, filter: ParentFilter, page: PageRequest) => Effect.Effect<Page<Collection>>
  /** Every collection of the organization, for walking the tree (small: collections are few). */
  readonly listAll: (organizationId: OrganizationId) => Effect.Effect<ReadonlyArray<Collection>>
  /**
   * The user's membership of the organization with every collection of it (as `listAll`), in one
   * read; none when the user is not a member.
   */
  readonly listForMember: (
    organizationId: OrganizationId,
    userId: UserId
  ) => Effect.Effect<Option.Option<{ readonly membership: Membership; readonly collections: ReadonlyArray<Collection> }>>
}>() {}

/**
 * A collection or space read with what access to it is decided from: the reader's membership of its organization, and
 * for a member every collection of the organization, in creation order (none for others).
 */
export interface ItemForAccess<A> {
  readonly item: A
  readonly membership: Option.Option<Membership>
  readonly collections: ReadonlyArray<Collection>
}

export class SpaceRepository extends Context.Tag("@octavo/domain/SpaceRepository")<SpaceRepository, {
  readonly insert: (space: Space) => Effect.Effect<void>
  /**
   * Writes every field of the space but `revisionId`, which only `setRevision` moves: a change to
   * its settings read before an edit landed cannot undo the edit.
   */
  readonly update: (space: Space) => Effect.Effect<void>
  /** Makes `revisionId` the space's active revision. */
  readonly setRevision: (id: SpaceId, revisionId: RevisionId, updatedAt: Date) => Effect.Effect<void>
  /**
   * In a unit of work: waits for, then holds until the unit ends, the space's lock, so that
   * changes to its content (live edits, merges, change request edits) take turns. Memory units
   * of work already run one at a time.
   */
  readonly lock: (id: SpaceId) => Effect.Effect<void>
  /** Removes the space for good, with its revisions and custom field values. */
  readonly delete: (id: SpaceId) => Effect.Effect<void>
  /** Finds soft-deleted spaces too. */
  readonly findById: (id: SpaceId) => Effect.Effect<Option.Option<Space>>
  /** A space (soft-deleted ones too) with what access to it is decided from, in one read. */
  readonly findForAccess: (id: SpaceId, userId: UserId) => Effect.Effect<Option.Option<ItemForAccess<Space>>>
  /** The spaces of those ids that exist (soft-deleted ones too), in no particular order. */
  readonly findMany: (ids: ReadonlyArray<SpaceId>) => Effect.Effect<ReadonlyArray<Space>>
  /** Spaces that are not soft-deleted, ascending by the filter's keyset. */
  readonly list: (organizationId: OrganizationId, filter: ParentFilter, page: PageRequest) => Effect.Effect<Page<Space>>
  /** Every space (soft-deleted ones too) whose parent is one of these collections. */
  readonly listInCollections: (ids: ReadonlyArray<CollectionId>) => Effect.Effect<ReadonlyArray<Space>>
  /** Soft-deleted spaces deleted at or before `cutoff`, at most `limit` of them. */
  readonly listDeletedBefore: (cutoff: Date, limit: number) => Effect.Effect<ReadonlyArray<Space>>
}>() {}

/** The order keys of a parent's children, collections and spaces together (soft-deleted spaces included). */
export interface Sibling {
  readonly id: string
  readonly position: string
}

export class SiblingRepository extends Context.Tag("@octavo/domain/SiblingRepository")<SiblingRepository, {
  /**
   * Inside a unit of work on a SQL store this also locks the parent until the unit ends, so
   * placements under one parent take turns and never pick the same key.
   */
  readonly childrenOf: (organizationId: OrganizationId, parentId: CollectionId | null) => Effect.Effect<ReadonlyArray<Sibling>>
}>() {}

export class RevisionRepository extends Context.Tag("@octavo/domain/RevisionRepository")<RevisionRepository, {
  readonly insert: (revision: Revision) => Effect.Effect<void>
  readonly findById: (id: RevisionId) => Effect.Effect<Option.Option<Revision>>
}>() {}

export class CustomFieldRepository extends Context.Tag("@octavo/domain/CustomFieldRepository")<CustomFieldRepository, {
  /** Fails with Conflict when the organization has a field of that name. */
  readonly insert: (field: CustomField) => Effect.Effect<void, Conflict>
  readonly update: (field: CustomField) => Effect.Effect<void>
  /** Removes the field and its values on every space. */
  readonly delete: (id: CustomFieldId) => Effect.Effect<void>
  readonly findByName: (organizationId: OrganizationId, name: string) => Effect.Effect<Option.Option<CustomField>>
  /** Keyset over (createdAt ms, id) ascending. */
  readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<CustomField>>
  readonly listAll: (organizationId: OrganizationId) => Effect.Effect<ReadonlyArray<CustomField>>
  /** The values set on a space, by field id. */
  readonly valuesOf: (spaceId: SpaceId) => Effect.Effect<ReadonlyMap<CustomFieldId, CustomFieldValue>>
  /** Sets (or, with null, clears) values on a space. */
  readonly setValues: (spaceId: SpaceId, values: ReadonlyMap<CustomFieldId, CustomFieldValue | null>) => Effect.Effect<void>
}>() {}

/**
 * What becomes of a space's content as the space comes and goes, inside the unit of work that
 * changes the space; the content context answers it.
 */
export class SpaceContentLifecycle extends Context.Tag("@octavo/domain/SpaceContentLifecycle")<SpaceContentLifecycle, {
  /** A new space, with `revisionId` as its first, empty revision. */
  readonly created: (spaceId: SpaceId, revisionId: RevisionId) => Effect.Effect<void>
  /** `copyId`'s first revision `revisionId` holds what `original`'s active revision holds. */
  readonly duplicated: (original: Space, copyId: SpaceId, revisionId: RevisionId) => Effect.Effect<void>
  /** The space is gone for good. */
  readonly purged: (spaceId: SpaceId) => Effect.Effect<void>
}>() {}

/** The storage the spaces context owns. */
export type SpacesPorts = CollectionRepository | SpaceRepository | SiblingRepository | RevisionRepository | CustomFieldRepository
