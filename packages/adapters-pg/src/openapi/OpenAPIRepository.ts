import * as SqlClient from "@effect/sql/SqlClient"
import {
  type Keyset,
  OpenAPISpec,
  OpenAPISpecId,
  OpenAPISpecRepository,
  OpenAPISpecVersion,
  OpenAPISpecVersionId,
  OpenAPISpecVersionRepository,
  OrganizationId,
  ProcessError,
  specSlugTaken
} from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { execute, findOne, Jsonb, rowOf, write } from "../shared/Rows.js"
import { byCreation, conflictOnUnique, selectPage } from "../shared/Sql.js"

const SpecRow = rowOf(OpenAPISpec, { lastProcessedErrors: Jsonb(Schema.Array(ProcessError)) })
const VersionRow = rowOf(OpenAPISpecVersion)
/** A version's text is kept as UTF-8 bytes (a byte order mark stays), in chunks of this many bytes. */
const CHUNK_BYTES = 256 * 1024
const Chunk = rowOf(Schema.Struct({ versionId: OpenAPISpecVersionId, number: Schema.Number, bytes: Schema.Uint8ArrayFromSelf }))
const ChunkKey = Schema.Struct({ versionId: OpenAPISpecVersionId, number: Schema.Number })
const ChunkBytes = Schema.Struct({ bytes: Schema.Uint8ArrayFromSelf })

const BySlug = Schema.Struct({ organizationId: OrganizationId, slug: Schema.String })
const Claimed = Schema.Struct({ id: OpenAPISpecId, claim: Schema.String })
const Claim = Schema.Struct({ claim: Schema.String, now: Schema.Number, leasedUntil: Schema.Number })
const VersionOf = Schema.Struct({ specId: OpenAPISpecId, id: OpenAPISpecVersionId })

/** A version's columns but its text, which only the raw content reads. */
const versionColumns = "v.id, v.spec_id, v.number, v.created_at, v.hash, v.format, v.source_url"

export const OpenAPISpecRepositoryLive = Layer.effect(
  OpenAPISpecRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const conflicts = conflictOnUnique(sql)
    const insertRow = write(SpecRow, (row) => sql`INSERT INTO openapi_specs ${sql.insert(row)}`)
    return OpenAPISpecRepository.of({
      insert: (spec) => conflicts(insertRow(spec), () => specSlugTaken(spec.slug)),
      update: execute(SpecRow, (row) => sql`UPDATE openapi_specs SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`),
      // Its versions go with it (ON DELETE CASCADE).
      remove: execute(OpenAPISpecId, (id) => sql`DELETE FROM openapi_specs WHERE id = ${id}`),
      findBySlug: (organizationId, slug) =>
        findOne(
          BySlug,
          SpecRow,
          (key) => sql`SELECT * FROM openapi_specs WHERE organization_id = ${key.organizationId} AND slug = ${key.slug}`
        )({ organizationId, slug }),
      lockBySlug: (organizationId, slug) =>
        findOne(
          BySlug,
          SpecRow,
          (key) => sql`SELECT * FROM openapi_specs WHERE organization_id = ${key.organizationId} AND slug = ${key.slug} FOR UPDATE`
        )({ organizationId, slug }),
      list: (organizationId, page) =>
        selectPage(sql, {
          select: sql`s.*`,
          from: sql`FROM openapi_specs s`,
          where: [sql`s.organization_id = ${organizationId}`],
          ...byCreation("s"),
          page,
          row: SpecRow
        }),
      // SKIP LOCKED: a job another server is taking is passed over, not waited for.
      claimJob: (claim, now, leasedUntil) =>
        findOne(
          Claim,
          SpecRow,
          (request) =>
            sql`UPDATE openapi_specs SET processing_state = 'progress', claim = ${request.claim}, leased_until = ${request.leasedUntil}
              WHERE id = (
                SELECT id FROM openapi_specs
                WHERE processing_state IN ('pending', 'progress')
                  AND (processing_state = 'pending' OR leased_until IS NULL OR leased_until < ${request.now})
                ORDER BY submitted_at, id
                LIMIT 1
                FOR UPDATE SKIP LOCKED
              )
              RETURNING *`
        )({ claim, now: now.getTime(), leasedUntil: leasedUntil.getTime() }),
      lockClaimed: (id, claim) =>
        findOne(
          Claimed,
          SpecRow,
          (request) =>
            sql`SELECT * FROM openapi_specs
              WHERE id = ${request.id} AND claim = ${request.claim} AND processing_state = 'progress' FOR UPDATE`
        )({ id, claim })
    })
  })
)

const byNumber = (version: OpenAPISpecVersion): Keyset => [version.number, version.id]

export const OpenAPISpecVersionRepositoryLive = Layer.effect(
  OpenAPISpecVersionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const insertRow = execute(VersionRow, (row) => sql`INSERT INTO openapi_spec_versions ${sql.insert(row)}`)
    const insertChunk = execute(Chunk, (row) => sql`INSERT INTO openapi_spec_version_chunks ${sql.insert(row)}`)
    const chunk = findOne(
      ChunkKey,
      ChunkBytes,
      (key) => sql`SELECT bytes FROM openapi_spec_version_chunks WHERE version_id = ${key.versionId} AND number = ${key.number}`
    )
    return OpenAPISpecVersionRepository.of({
      // One statement a chunk, so that a large text never holds the database for long.
      insert: (version, text) =>
        Effect.gen(function*() {
          yield* insertRow(version)
          const bytes = new Uint8Array(Buffer.from(text, "utf8"))
          for (let number = 0; number * CHUNK_BYTES < bytes.length; number++) {
            yield* insertChunk({ versionId: version.id, number, bytes: bytes.subarray(number * CHUNK_BYTES, (number + 1) * CHUNK_BYTES) })
          }
        }),
      find: (specId, id) =>
        findOne(
          VersionOf,
          VersionRow,
          (key) =>
            sql`SELECT ${sql.literal(versionColumns)} FROM openapi_spec_versions v WHERE v.id = ${key.id} AND v.spec_id = ${key.specId}`
        )({ specId, id }),
      text: (id) =>
        Effect.gen(function*() {
          const version = yield* findOne(
            OpenAPISpecVersionId,
            Schema.Struct({ id: OpenAPISpecVersionId }),
            (key) => sql`SELECT id FROM openapi_spec_versions WHERE id = ${key}`
          )(id)
          if (Option.isNone(version)) return Option.none()
          const parts: Array<Uint8Array> = []
          for (let number = 0;; number++) {
            const part = yield* chunk({ versionId: id, number })
            if (Option.isNone(part)) break
            parts.push(part.value.bytes)
          }
          return Option.some(Buffer.concat(parts).toString("utf8"))
        }),
      list: (specId, page) =>
        selectPage(sql, {
          select: sql.literal(versionColumns),
          from: sql`FROM openapi_spec_versions v`,
          where: [sql`v.spec_id = ${specId}`],
          keyset: { value: "v.number", id: "v.id" },
          keysetOf: byNumber,
          order: "desc",
          page,
          row: VersionRow
        })
    })
  })
)
