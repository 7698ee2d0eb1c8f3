import { Effect, Layer } from "effect"
import { ChangeRequestComments } from "../content/Ports.js"
import type { SpaceId } from "../shared/Ids.js"
import type { SpaceCounts } from "../spaces/Ports.js"
import { CommentRepository } from "./Ports.js"

/** The spaces context's counters of earlier contexts, with the open comments counted here. */
export const withOpenComments = (
  counts: ReadonlyMap<SpaceId, Partial<SpaceCounts>>,
  open: ReadonlyMap<SpaceId, number>
): Map<SpaceId, Partial<SpaceCounts>> => {
  const answered = new Map(counts)
  for (const [id, comments] of open) answered.set(id, { ...answered.get(id), comments })
  return answered
}

/** The content context's count of a change request's open comments, answered from the comments' storage. */
export const OpenCommentCounts = Layer.effect(
  ChangeRequestComments,
  Effect.map(CommentRepository, (comments) => ChangeRequestComments.of({ openCounts: comments.openByChangeRequest }))
)
