/**
 * Two floors for `bench:peer`, on Octavo's own stack: the same two endpoints as Octavo (`GET /v1/spaces/{id}`,
 * `GET /v1/collections/{id}/spaces`) declared with Octavo's wire schemas (`SpaceObject`, `ListOf`) on
 * `@effect/platform`'s HttpApi, behind a bearer security middleware of the same shape as Octavo's, served by
 * `NodeHttpServer`. No access rule, counter or log line.
 *
 * - Without `FLOOR_DATABASE_URL`, the framework floor: the token is checked by its SHA-256 against one kept hash
 *   (`FLOOR_TOKEN_SHA256`) and the spaces are the ones Octavo answered (`FLOOR_SPACES`, a JSON file), held in memory.
 *   What a request costs on this stack before a single statement: the ceiling of any server built on it.
 * - With `FLOOR_DATABASE_URL` (the peer's schema in `search_path`), the peer's work on this stack: the peer's own
 *   statements on its own tables (the token's user by its SHA-256, then the row; the page and its count), sent through
 *   `@effect/sql-pg` as Octavo sends its own, each row decoded through a Schema as Octavo's adapters decode theirs.
 *
 * `PORT` sets the port.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgServerClient } from "@octavo/adapters-pg"
import { Actor, CollectionId, SpaceId, type User } from "@octavo/domain"
import { Effect, Layer, Redacted, Schema } from "effect"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { ListOf, PageQuery } from "../src/shared/Common.js"
import { Unauthorized } from "../src/shared/Errors.js"
import { SpaceObject } from "../src/spaces/Wire.js"
import { ALL_PERMISSIONS, NO_COUNTS } from "./peerShape.js"

class FloorAuthentication extends HttpApiMiddleware.Tag<FloorAuthentication>()("FloorAuthentication", {
  failure: Unauthorized,
  provides: Actor,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("floor")
    .add(
      HttpApiEndpoint.get("space", "/v1/spaces/:spaceId")
        .setPath(Schema.Struct({ spaceId: SpaceId }))
        .addSuccess(SpaceObject)
    )
    .add(
      HttpApiEndpoint.get("spaces", "/v1/collections/:collectionId/spaces")
        .setPath(Schema.Struct({ collectionId: CollectionId }))
        .setUrlParams(Schema.Struct(PageQuery))
        .addSuccess(ListOf(SpaceObject))
    )
    .middleware(FloorAuthentication)
)

const DATABASE = process.env["FLOOR_DATABASE_URL"]
const PUBLIC_URL = "http://bench"

/** A row of the peer's `peer_spaces`, as `pg` gives it. */
const SpaceRow = Schema.Struct({
  id: SpaceId,
  organization_id: Schema.String,
  parent_id: Schema.NullOr(CollectionId),
  title: Schema.String,
  emoji: Schema.String,
  visibility: SpaceObject.fields.visibility,
  edit_mode: SpaceObject.fields.editMode,
  default_level: SpaceObject.fields.defaultLevel,
  revision: Schema.String,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
const decodeRows = Schema.decodeUnknown(Schema.Array(SpaceRow))
const COLUMNS = "id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level, revision, created_at, updated_at"

const present = (row: typeof SpaceRow.Type): typeof SpaceObject.Type => ({
  object: "space",
  id: row.id,
  title: row.title,
  emoji: row.emoji,
  visibility: row.visibility,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  editMode: row.edit_mode,
  mergeRules: { type: "inherit" },
  urls: { location: `${PUBLIC_URL}/v1/spaces/${row.id}`, app: `${PUBLIC_URL}/o/${row.organization_id}/s/${row.id}` },
  organization: row.organization_id as typeof SpaceObject.Type.organization,
  ...(row.parent_id === null ? {} : { parent: row.parent_id }),
  revision: row.revision as typeof SpaceObject.Type.revision,
  defaultLevel: row.default_level,
  ...NO_COUNTS,
  permissions: ALL_PERMISSIONS
})

const benchUser = {
  id: "bench",
  displayName: "Bench",
  email: "bench@example.com",
  isInstanceAdmin: false,
  createdAt: new Date()
} as User

const unauthorized = { error: { code: 401, message: "A valid bearer token is required" } } as const

const hashOf = (token: Redacted.Redacted<string>) => createHash("sha256").update(Redacted.value(token)).digest("hex")

/** The framework floor: no storage. */
const inMemory = () => {
  const spaces = Schema.decodeUnknownSync(Schema.Array(SpaceObject))(
    JSON.parse(readFileSync(process.env["FLOOR_SPACES"] as string, "utf8"))
  )
  const byId = new Map(spaces.map((space) => [space.id as string, space]))
  const tokenHash = process.env["FLOOR_TOKEN_SHA256"] as string
  const authentication = Layer.succeed(FloorAuthentication, {
    bearer: (token) => hashOf(token) === tokenHash ? Effect.succeed(benchUser) : Effect.fail(unauthorized)
  })
  const handlers = HttpApiBuilder.group(Api, "floor", (handlers) =>
    handlers
      .handle("space", ({ path }) => Effect.succeed(byId.get(path.spaceId) ?? spaces[0]!))
      .handle("spaces", () => Effect.succeed({ items: spaces, count: spaces.length })))
  return Layer.provide(handlers, authentication)
}

/** The peer's statements on this stack. */
const onPeerTables = (url: string) => {
  const authentication = Layer.effect(
    FloorAuthentication,
    Effect.map(SqlClient.SqlClient, (sql) => ({
      bearer: (token) =>
        sql`SELECT u.id FROM peer_tokens t JOIN peer_users u ON u.id = t.user_id
          WHERE t.hash = ${hashOf(token)} AND t.revoked_at IS NULL`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(unauthorized) : Effect.succeed(benchUser))
        )
    }))
  )
  const handlers = HttpApiBuilder.group(Api, "floor", (handlers) =>
    Effect.map(SqlClient.SqlClient, (sql) =>
      handlers
        .handle("space", ({ path }) =>
          sql.unsafe(`SELECT ${COLUMNS} FROM peer_spaces WHERE id = $1`, [path.spaceId]).pipe(
            Effect.flatMap(decodeRows),
            Effect.orDie,
            Effect.map((rows) => present(rows[0]!))
          ))
        .handle("spaces", ({ path, urlParams }) =>
          Effect.all([
            sql.unsafe(`SELECT ${COLUMNS} FROM peer_spaces WHERE parent_id = $1 ORDER BY position, id LIMIT $2`, [
              path.collectionId,
              urlParams.limit ?? 50
            ]).pipe(Effect.flatMap(decodeRows)),
            sql.unsafe<{ count: string }>("SELECT count(*) AS count FROM peer_spaces WHERE parent_id = $1", [path.collectionId])
          ], { concurrency: 2 }).pipe(
            Effect.orDie,
            Effect.map(([rows, count]) => ({ items: rows.map(present), count: Number(count[0]?.count ?? 0) }))
          ))))
  return Layer.provide(handlers, authentication).pipe(Layer.provide(PgServerClient(url)), Layer.orDie)
}

HttpApiBuilder.serve().pipe(
  Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(DATABASE === undefined ? inMemory() : onPeerTables(DATABASE)))),
  Layer.provide(NodeHttpServer.layer(createServer, { port: Number(process.env["PORT"]) })),
  Layer.launch,
  NodeRuntime.runMain
)
