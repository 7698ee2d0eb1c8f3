import { Effect } from "effect"
import { Actor } from "../identity/Actor.js"
import { Conflict } from "../shared/Errors.js"
import { ChangeRequestId, type SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import {
  type ChangeRequest,
  type ChangeRequestStatus,
  CreateChangeRequestInput,
  UpdateChangeRequestInput
} from "./ChangeRequest.js"
import { makeChangeRequestWork } from "./ChangeRequestWork.js"
import { ChangeRequestRepository } from "./Ports.js"

/** Which status changes a person may make; `merged` comes only from merging. */
const transitions: Readonly<Record<ChangeRequestStatus, ReadonlyArray<ChangeRequestStatus>>> = {
  draft: ["draft", "open", "archived"],
  open: ["open", "draft", "archived"],
  archived: ["archived", "draft", "open"],
  merged: []
}

/**
 * Change requests themselves (the API's `changeRequests` group): opening, listing, reading and
 * changing them; `locate` finds one for the services built on them (its content, its comments).
 */
export class ChangeRequests extends Effect.Service<ChangeRequests>()("@octavo/domain/ChangeRequests", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const changeRequests = yield* ChangeRequestRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const { find, locate, locateWith, view, views } = yield* makeChangeRequestWork

    const create = (spaceId: SpaceId, input: CreateChangeRequestInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateChangeRequestInput)(input)
        const proof = yield* guard.authorize(spaceId, "edit", "open change requests in this space")
        const actor = yield* Actor
        const at = yield* now
        return yield* uow.transaction(Effect.gen(function*() {
          // Numbers are taken under the space's lock: concurrent creates queue instead of colliding.
          const space = yield* guard.lockForChange(proof)
          const changeRequest: ChangeRequest = {
            id: ChangeRequestId.make(yield* secrets.newId),
            spaceId,
            number: (yield* changeRequests.lastNumber(spaceId)) + 1,
            status: "draft",
            subject: valid.subject ?? "",
            initialRevisionId: space.revisionId,
            baseRevisionId: space.revisionId,
            revisionId: space.revisionId,
            createdBy: actor.id,
            createdAt: at,
            updatedAt: at
          }
          yield* changeRequests.insert(changeRequest)
          return yield* view(space, changeRequest)
        }))
      })

    const list = (spaceId: SpaceId, status: ChangeRequestStatus | undefined, page: PageRequest) =>
      Effect.gen(function*() {
        const { space } = yield* guard.space(spaceId)
        const result = yield* changeRequests.list(spaceId, { status }, page)
        return { ...result, items: yield* views(space, result.items) }
      })

    const get = (spaceId: SpaceId, reference: string) =>
      Effect.flatMap(locate(spaceId, reference), ({ changeRequest, grant }) => view(grant.space, changeRequest))

    const update = (spaceId: SpaceId, reference: string, input: UpdateChangeRequestInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateChangeRequestInput)(input)
        const proof = yield* guard.authorize(spaceId, "edit", "change change requests in this space")
        return yield* uow.transaction(Effect.gen(function*() {
          // Under the space's lock and read again: an edit or a merge that landed meanwhile stays.
          const current = yield* guard.lockForChange(proof)
          const latest = yield* find(current, reference)
          if (valid.status !== undefined && !transitions[latest.status].includes(valid.status)) {
            return yield* new Conflict({ reason: `A ${latest.status} change request cannot become ${valid.status}` })
          }
          if (latest.status === "merged") return yield* new Conflict({ reason: "A merged change request cannot change" })
          const updated: ChangeRequest = {
            ...latest,
            subject: valid.subject ?? latest.subject,
            status: valid.status ?? latest.status,
            updatedAt: yield* now
          }
          yield* changeRequests.update(updated)
          return yield* view(current, updated)
        }))
      })

    return { locate, locateWith, create, list, get, update } as const
  })
}) {}
