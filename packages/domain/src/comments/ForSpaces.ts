import { Effect, Layer } from "effect"
import { ChangeRequestCounters } from "../content/ForSpaces.js"
import { ChangeRequestComments } from "../content/Ports.js"
import type { SpaceId } from "../shared/Ids.js"
import { type SpaceCounts, SpaceCounters } from "../spaces/Ports.js"
import { CommentRepository } from "./Ports.js"

/** The spaces context's counters: the content context's change requests, with the open comments counted here. */
export const CommentCounters = Layer.effect(
  SpaceCounters,
  Effect.gen(function*() {
    const changeRequests = yield* SpaceCounters
    const comments = yield* CommentRepository
    return SpaceCounters.of({
      countsFor: (spaceIds) =>
        Effect.map(Effect.all([changeRequests.countsFor(spaceIds), comments.openCounts(spaceIds)]), ([counts, open]) => {
          const answered = new Map<SpaceId, Partial<SpaceCounts>>(counts)
          for (const [id, comments] of open) answered.set(id, { ...answered.get(id), comments })
          return answered
        })
    })
  })
).pipe(Layer.provide(ChangeRequestCounters))

/** The content context's count of a change request's open comments, answered from the comments' storage. */
export const OpenCommentCounts = Layer.effect(
  ChangeRequestComments,
  Effect.map(CommentRepository, (comments) => ChangeRequestComments.of({ openCounts: comments.openByChangeRequest }))
)
