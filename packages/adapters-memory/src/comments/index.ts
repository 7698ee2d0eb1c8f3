import type { CommentsPorts } from "@octavo/domain"
import type { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryCommentRepository } from "./Repositories.js"

export { CommentsState } from "./State.js"

/** The comments context's storage, in memory. */
export const MemoryComments: Layer.Layer<CommentsPorts, never, MemoryStore> = MemoryCommentRepository
