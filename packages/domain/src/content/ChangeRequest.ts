import type { User } from "../identity/User.js"
import type { ChangeRequestKey, ChangeRequestRepository } from "./Ports.js"
import { Effect, Option, Schema } from "effect"
import { ChangeRequestId, RevisionId, SpaceId, UserId } from "../shared/Ids.js"
import { boundedString } from "../shared/Limits.js"

export const ChangeRequestStatus = Schema.Literal("draft", "open", "archived", "merged")
export type ChangeRequestStatus = typeof ChangeRequestStatus.Type

export const ChangeRequestSubject = boundedString({ max: 100 })

export const ChangeRequest = Schema.Struct({
  id: ChangeRequestId,
  spaceId: SpaceId,
  /** 1, 2, 3… within the space. */
  number: Schema.Number,
  status: ChangeRequestStatus,
  subject: Schema.String,
  /** The space revision the change request started from. */
  initialRevisionId: RevisionId,
  /** The space revision its changes are based on now (moved by `update`). */
  baseRevisionId: RevisionId,
  /** The change request's own latest revision. */
  revisionId: RevisionId,
  createdBy: UserId,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  mergedAt: Schema.optional(Schema.DateFromSelf)
})
export type ChangeRequest = typeof ChangeRequest.Type

export const CreateChangeRequestInput = Schema.Struct({ subject: Schema.optional(ChangeRequestSubject) })
export type CreateChangeRequestInput = typeof CreateChangeRequestInput.Type

export const UpdateChangeRequestInput = Schema.Struct({
  subject: Schema.optional(ChangeRequestSubject),
  status: Schema.optional(Schema.Literal("draft", "open", "archived"))
})
export type UpdateChangeRequestInput = typeof UpdateChangeRequestInput.Type

/** A change request as read: with whether the space moved on since its base, and who opened it. */
export interface ChangeRequestView {
  readonly changeRequest: ChangeRequest
  readonly outdated: boolean
  /** The user who opened it; absent only if that account no longer exists. */
  readonly createdBy?: User | undefined
  /** How many of its comments are open. */
  readonly openComments: number
}

/** The space's change request of `key`, through the repository; none when the key names another space's. */
export const findByKey = (
  changeRequests: ChangeRequestRepository["Type"],
  spaceId: SpaceId,
  key: ChangeRequestKey
): Effect.Effect<Option.Option<ChangeRequest>> =>
  Effect.map(
    "id" in key ? changeRequests.findById(key.id) : changeRequests.findByNumber(spaceId, key.number),
    Option.filter((changeRequest) => changeRequest.spaceId === spaceId)
  )
