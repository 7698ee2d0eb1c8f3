import type * as SqlClient from "@effect/sql/SqlClient"
import type { CommentsPorts } from "@octavo/domain"
import { Layer } from "effect"
import { CommentRepositoryLive } from "./CommentRepository.js"
import { commentsMigrations } from "./migrations.js"
import { PgChangeRequestViewFacts, PgCommentViewFacts, PgOpenComments, PgSpaceCommentReads } from "./Reads.js"
import { pgContext } from "../shared/Context.js"

/** The comments context's storage: comments, replies, reactions and the open counts per space. */
export const PgComments: Layer.Layer<CommentsPorts, never, SqlClient.SqlClient> = CommentRepositoryLive

export { CommentRepositoryLive } from "./CommentRepository.js"
export { commentsMigrations } from "./migrations.js"
export { PgChangeRequestViewFacts, PgCommentViewFacts, PgOpenComments, PgSpaceCommentReads } from "./Reads.js"

/** The comments context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgCommentsContext = pgContext({
  storage: Layer.mergeAll(PgComments, PgSpaceCommentReads, PgChangeRequestViewFacts, PgCommentViewFacts),
  migrations: commentsMigrations,
  spaceFacts: [PgOpenComments]
})
