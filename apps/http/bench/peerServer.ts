/**
 * The peer of `bench:peer`: what a hand-written server answering Octavo's two benchmarked requests looks like, with
 * Fastify and `pg` and a tiny schema of its own (tokens, users, spaces). It authenticates the bearer token by its
 * SHA-256 and reads the rows, but checks no membership, level or collection chain, and keeps no counters: a floor for
 * what serving these requests costs on this machine, not a rival implementation. `DATABASE_URL` (its own schema in
 * `search_path`) and `PORT` configure it; `bench/peer.ts` creates its tables (`PEER_SCHEMA` there), fills them and starts it.
 */
import { createHash } from "node:crypto"
import Fastify from "fastify"
import pg from "pg"
import { ALL_PERMISSIONS, NO_COUNTS } from "./peerShape.js"

interface SpaceRow {
  readonly id: string
  readonly organization_id: string
  readonly parent_id: string | null
  readonly title: string
  readonly emoji: string
  readonly visibility: string
  readonly edit_mode: string
  readonly default_level: string
  readonly revision: string
  readonly created_at: Date
  readonly updated_at: Date
}

const start = async () => {
  const publicUrl = process.env["PEER_PUBLIC_URL"] ?? "http://bench"
  const pool = new pg.Pool({ connectionString: process.env["DATABASE_URL"], max: 10 })
  const app = Fastify({ logger: false })

  const present = (row: SpaceRow) => ({
    object: "space",
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    editMode: row.edit_mode,
    mergeRules: { type: "inherit" },
    urls: { location: `${publicUrl}/v1/spaces/${row.id}`, app: `${publicUrl}/o/${row.organization_id}/s/${row.id}` },
    organization: row.organization_id,
    parent: row.parent_id,
    revision: row.revision,
    defaultLevel: row.default_level,
    ...NO_COUNTS,
    permissions: ALL_PERMISSIONS
  })

  const failure = (code: number, message: string) => ({ error: { code, message } })

  /** The user of the request's bearer token, or undefined. */
  const userOf = async (authorization: string | undefined): Promise<string | undefined> => {
    const token = authorization === undefined ? undefined : /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1]
    if (token === undefined) return undefined
    const hash = createHash("sha256").update(token).digest("hex")
    const found = await pool.query<{ id: string }>(
      "SELECT u.id FROM peer_tokens t JOIN peer_users u ON u.id = t.user_id WHERE t.hash = $1 AND t.revoked_at IS NULL",
      [hash]
    )
    return found.rows[0]?.id
  }

  const columns = "id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level, revision, created_at, updated_at"

  app.get<{ Params: { spaceId: string } }>("/v1/spaces/:spaceId", async (request, reply) => {
    if ((await userOf(request.headers.authorization)) === undefined) return reply.code(401).send(failure(401, "unauthorized"))
    const found = await pool.query<SpaceRow>(`SELECT ${columns} FROM peer_spaces WHERE id = $1`, [request.params.spaceId])
    const row = found.rows[0]
    return row === undefined ? reply.code(404).send(failure(404, "not found")) : present(row)
  })

  app.get<{ Params: { collectionId: string }; Querystring: { limit?: string } }>(
    "/v1/collections/:collectionId/spaces",
    async (request, reply) => {
      if ((await userOf(request.headers.authorization)) === undefined) return reply.code(401).send(failure(401, "unauthorized"))
      const limit = Math.min(Math.max(Number(request.query.limit ?? 50) || 50, 1), 1000)
      const [items, count] = await Promise.all([
        pool.query<SpaceRow>(`SELECT ${columns} FROM peer_spaces WHERE parent_id = $1 ORDER BY position, id LIMIT $2`, [
          request.params.collectionId,
          limit
        ]),
        pool.query<{ count: string }>("SELECT count(*) AS count FROM peer_spaces WHERE parent_id = $1", [request.params.collectionId])
      ])
      return { items: items.rows.map(present), count: Number(count.rows[0]?.count ?? 0) }
    }
  )

  await app.listen({ port: Number(process.env["PORT"] ?? 3001), host: "127.0.0.1" })
  const stop = () => void app.close().then(() => pool.end()).then(() => process.exit(0))
  process.on("SIGTERM", stop)
  process.on("SIGINT", stop)
}

void start()
