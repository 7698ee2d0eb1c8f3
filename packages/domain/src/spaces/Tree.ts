import { Effect } from "effect"
import { InvalidInput } from "../shared/Errors.js"
import type { CollectionId } from "../shared/Ids.js"
import { keyBetween } from "../shared/Position.js"
import type { Role } from "../shared/Role.js"
import type { Sibling } from "./Ports.js"
import { type Collection, type DefaultLevel, type Position, type SiblingRef, siblingOf } from "./Space.js"

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

const compareSiblings = (a: Sibling, b: Sibling) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0

/**
 * The order key for an item placed among `siblings` (the target parent's children, without the
 * item itself): before or after a named sibling, else at the end. Naming a sibling that is not
 * under the target parent is invalid input.
 */
export const placeAmong = (siblings: ReadonlyArray<Sibling>, position: Position | undefined): Effect.Effect<string, InvalidInput> => {
  const ordered = [...siblings].sort(compareSiblings)
  const keys = ordered.map((s) => s.position)
  const indexOf = (field: string, id: string) => {
    const i = ordered.findIndex((s) => s.id === id)
    return i < 0 ? Effect.fail(new InvalidInput({ field, rule: `${id} is not a sibling under the target parent` })) : Effect.succeed(i)
  }
  // Neighbours with the same key (left by concurrent placements) count as one.
  const below = (i: number) => keys.slice(0, i).reverse().find((k) => k < keys[i]!)
  const above = (i: number) => keys.slice(i + 1).find((k) => k > keys[i]!)
  const named = (side: "before" | "after", ref: SiblingRef) => {
    const { field, id } = siblingOf(ref)
    return indexOf(`position.${side}.${field}`, id)
  }
  if (position?.after !== undefined) {
    const after = position.after
    return Effect.gen(function*() {
      const i = yield* named("after", after)
      if (position.before !== undefined) {
        const j = yield* named("before", position.before)
        if (j !== i + 1) {
          return yield* new InvalidInput({ field: "position", rule: "before and after must name adjacent siblings" })
        }
      }
      return keyBetween(keys[i], above(i))
    })
  }
  if (position?.before !== undefined) {
    return Effect.map(named("before", position.before), (i) => keyBetween(below(i), keys[i]))
  }
  return Effect.succeed(keyBetween(keys[keys.length - 1], undefined))
}
