import type * as SqlClient from "@effect/sql/SqlClient"
import type { BlobStore, ContentPorts } from "@octavo/domain"
import { Layer } from "effect"
import { BlobStoreLive } from "./BlobStore.js"
import { ChangeRequestRepositoryLive } from "./ChangeRequestRepository.js"
import { RevisionContentRepositoryLive } from "./RevisionContentRepository.js"
import { contentMigrations } from "./migrations.js"
import { PgChangeRequestCounts, PgSpaceChangeRequestReads } from "./Reads.js"
import { pgContext } from "../shared/Context.js"

/** The content context's storage with the blob store given (DiskBlobStore, say). */
export const PgContentWith = <E, R>(
  blobs: Layer.Layer<BlobStore, E, R>
): Layer.Layer<ContentPorts, E, SqlClient.SqlClient | R> =>
  Layer.mergeAll(RevisionContentRepositoryLive, ChangeRequestRepositoryLive, blobs)

/** The content context's storage: revision content, change requests, and file bytes in the `blobs` table. */
export const PgContent: Layer.Layer<ContentPorts, never, SqlClient.SqlClient> = PgContentWith(BlobStoreLive)

export { BlobStoreLive } from "./BlobStore.js"
export { ChangeRequestRepositoryLive } from "./ChangeRequestRepository.js"
export { DiskBlobStore } from "./DiskBlobStore.js"
export { contentMigrations } from "./migrations.js"
export {
  makeRevisionContentRepositoryLive,
  RevisionContentRepositoryLive,
  SNAPSHOT_INTERVAL
} from "./RevisionContentRepository.js"
export { PgChangeRequestCounts, PgSpaceChangeRequestReads } from "./Reads.js"

/** The content context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgContentContext = pgContext({
  storage: Layer.mergeAll(PgContent, PgSpaceChangeRequestReads),
  migrations: contentMigrations,
  spaceFacts: [PgChangeRequestCounts]
})
