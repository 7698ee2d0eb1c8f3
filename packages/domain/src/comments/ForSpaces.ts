import { Effect } from "effect"
import type { SpaceId } from "../shared/Ids.js"
import type { SpaceFact } from "../spaces/Facts.js"
import { CommentRepository } from "./Ports.js"

/** A space's open comments counted, on views of spaces (those without any count none). */
export const OpenCommentsFact: SpaceFact<ReadonlyMap<SpaceId, number>, number, CommentRepository> = {
  key: "open_comments",
  read: Effect.map(CommentRepository, (comments) => comments.openCounts),
  show: Effect.succeed((counts) => Effect.succeed(counts))
}
