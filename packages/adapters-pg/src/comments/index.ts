import type * as SqlClient from "@effect/sql/SqlClient"
import type { CommentsPorts } from "@octavo/domain"
import type { Layer } from "effect"
import { CommentRepositoryLive } from "./CommentRepository.js"

/** The comments context's storage: comments, replies, reactions and the open counts per space. */
export const PgComments: Layer.Layer<CommentsPorts, never, SqlClient.SqlClient> = CommentRepositoryLive

export { CommentRepositoryLive } from "./CommentRepository.js"
export { commentsMigrations } from "./migrations.js"
export { PgChangeRequestViewFacts, PgCommentViewFacts, PgOpenComments, PgSpaceCommentReads } from "./Reads.js"
