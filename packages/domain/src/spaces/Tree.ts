import type { Effect } from "effect"
import type { InvalidInput } from "../shared/Errors.js"
import type { CollectionId } from "../shared/Ids.js"
import { placeAmongSiblings } from "../shared/Position.js"
import type { Role } from "../shared/Role.js"
import type { Sibling } from "./Ports.js"
import { type Collection, type DefaultLevel, type Position, siblingOf } from "./Space.js"

/** The collections of an organization by id, to walk up from any item. */
export type CollectionIndex = ReadonlyMap<string, Collection>

export const indexCollections = (collections: ReadonlyArray<Collection>): CollectionIndex =>
  new Map(collections.map((c) => [c.id as string, c]))

/** The collections above a parent, nearest first, starting with the parent itself. */
export const ancestry = (index: CollectionIndex, parentId: CollectionId | null): ReadonlyArray<Collection> => {
  const chain: Array<Collection> = []
  let current = parentId === null ? undefined : index.get(parentId)
  while (current !== undefined && !chain.includes(current)) {
    chain.push(current)
    current = current.parentId === null ? undefined : index.get(current.parentId)
  }
  return chain
}

/**
 * The default levels that apply to an item: its own, then those of the collections above it, up
 * to the first that has none (`null`); `"inherit"` adds nothing and passes on to the parent's.
 */
export const defaultLevelsOf = (index: CollectionIndex, own: DefaultLevel, parentId: CollectionId | null): ReadonlyArray<Role> => {
  const levels: Array<Role> = []
  for (const level of [own, ...ancestry(index, parentId).map((c) => c.defaultLevel)]) {
    if (level === null) break
    if (level !== "inherit") levels.push(level)
  }
  return levels
}

/** Whether `candidate` is `collectionId` itself or lies below it. */
export const isWithin = (index: CollectionIndex, candidate: CollectionId | null, collectionId: CollectionId): boolean =>
  ancestry(index, candidate).some((c) => c.id === collectionId)

/** Every collection below `collectionId` (not itself). */
export const descendants = (index: CollectionIndex, collectionId: CollectionId): ReadonlyArray<Collection> =>
  Array.from(index.values()).filter((c) => c.id !== collectionId && isWithin(index, c.id, collectionId))

/**
 * The order key for an item placed among `siblings` (the target parent's children, without the
 * item itself): before or after a named sibling, else at the end. Naming a sibling that is not
 * under the target parent is invalid input.
 */
export const placeAmong = (siblings: ReadonlyArray<Sibling>, position: Position | undefined): Effect.Effect<string, InvalidInput> =>
  placeAmongSiblings(siblings, {
    before: position?.before === undefined ? undefined : siblingOf(position.before),
    after: position?.after === undefined ? undefined : siblingOf(position.after)
  })
