import { Effect, Option, Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { Conflict, NotFound } from "../shared/Errors.js"
import { ChangeRequestId, type SpaceId, type UserId } from "../shared/Ids.js"
import type { Space } from "../spaces/Space.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { type ChangeRequest, type ChangeRequestView, findByKey } from "./ChangeRequest.js"
import {
  type ChangeRequestKey,
  ChangeRequestRepository,
  ChangeRequestViewFacts,
  SpaceChangeRequestReads,
  type SpaceWithChangeRequest
} from "./Ports.js"

const isChangeRequestId = Schema.is(ChangeRequestId)

/** The change request a reference names: its number within the space or its id; undefined when it names none. */
const keyOf = (reference: string): ChangeRequestKey | undefined => {
  // A number beyond PostgreSQL's integer, or a reference that is no id, names nothing.
  if (/^\d{1,10}$/.test(reference)) {
    const number = Number(reference)
    return number <= 2_147_483_647 ? { number } : undefined
  }
  return isChangeRequestId(reference) ? { id: reference } : undefined
}

export const notFound = (reference: string) => new NotFound({ entity: "change request", id: reference })

/** Merged and archived change requests take no more work: no edits, no merge, no update from the space. */
export const requireOpenForWork = (changeRequest: ChangeRequest) =>
  changeRequest.status === "merged" || changeRequest.status === "archived"
    ? Effect.fail(new Conflict({ reason: `The change request is ${changeRequest.status}` }))
    : Effect.void

/**
 * What the change request services share: finding the change request a reference names (in a space
 * read already, or with the actor's grant on the space in one read) and describing change requests.
 */
export const makeChangeRequestWork = Effect.gen(function*() {
  const guard = yield* SpaceAccess
  const changeRequests = yield* ChangeRequestRepository
  const facts = yield* ChangeRequestViewFacts
  const reads = yield* SpaceChangeRequestReads

  /** Change requests as read, with their authors and their open comments (one read of both). */
  const views = (space: Space, list: ReadonlyArray<ChangeRequest>) =>
    Effect.map(facts.of(list), ({ authors, openComments }) =>
      list.map((changeRequest): ChangeRequestView => ({
        changeRequest,
        outdated: changeRequest.status !== "merged" && changeRequest.baseRevisionId !== space.revisionId,
        createdBy: authors.get(changeRequest.createdBy),
        openComments: openComments.get(changeRequest.id) ?? 0
      })))

  const view = (space: Space, changeRequest: ChangeRequest) =>
    Effect.map(views(space, [changeRequest]), (one) => one[0] as ChangeRequestView)

  /** `reference` (the id or the number within the space) in a space read already, such as one under its lock. */
  const find = (space: Space, reference: string) =>
    Effect.gen(function*() {
      const key = keyOf(reference)
      const found = key === undefined ? Option.none() : yield* findByKey(changeRequests, space.id, key)
      if (Option.isNone(found)) return yield* notFound(reference)
      return found.value
    })

  /**
   * The actor's grant on a space it can read and what `read` reads with it (the change request `reference` names
   * there, if any, and whatever else it reads in the same round trip): a space the actor cannot see is not found
   * before its change request is looked at.
   */
  const withChangeRequestRead = <X extends SpaceWithChangeRequest>(
    spaceId: SpaceId,
    reference: string,
    read: (userId: UserId, key: ChangeRequestKey) => Effect.Effect<Option.Option<X>>
  ) =>
    Effect.gen(function*() {
      const key = keyOf(reference)
      if (key === undefined) return { grant: yield* guard.space(spaceId), found: Option.none<X>() }
      const actor = yield* Actor
      const found = yield* read(actor.id, key)
      return { grant: yield* guard.spaceFrom(spaceId, found), found }
    })

  const withChangeRequest = (spaceId: SpaceId, reference: string) =>
    Effect.map(
      withChangeRequestRead(spaceId, reference, (userId, key) => reads.find(spaceId, userId, key)),
      ({ found, grant }) => ({ grant, changeRequest: Option.flatMap(found, (read) => read.changeRequest) })
    )

  /**
   * `locate`, with what `read` reads in the same round trip as the space and the change request (as
   * `SpaceChangeRequestReads` reads them, and more).
   */
  const locateWith = <X extends SpaceWithChangeRequest>(
    spaceId: SpaceId,
    reference: string,
    read: (userId: UserId, key: ChangeRequestKey) => Effect.Effect<Option.Option<X>>
  ) =>
    Effect.flatMap(withChangeRequestRead(spaceId, reference, read), ({ found, grant }) => {
      const changeRequest = Option.flatMap(found, (read) => read.changeRequest)
      return Option.isNone(found) || Option.isNone(changeRequest)
        ? Effect.fail(notFound(reference))
        : Effect.succeed({ grant, changeRequest: changeRequest.value, read: found.value })
    })

  /** The change request `reference` names in a space the actor can read, with the actor's grant on the space. */
  const locate = (spaceId: SpaceId, reference: string) => locateWith(spaceId, reference, (userId, key) => reads.find(spaceId, userId, key))

  return { views, view, find, withChangeRequest, locateWith, locate } as const
})
