import * as SqlClient from "@effect/sql/SqlClient"
import { type ApiToken, type TokenId, TokenRepository, type UserId } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { type Millis, toDate, toOptionalDate } from "./Sql.js"

interface TokenRow {
  readonly id: TokenId
  readonly user_id: UserId
  readonly label: string
  readonly hash: string
  readonly created_at: Millis
  readonly revoked_at: Millis | null
}

const toToken = (row: TokenRow): ApiToken => {
  const revokedAt = toOptionalDate(row.revoked_at)
  return {
    id: row.id,
    userId: row.user_id,
    label: row.label,
    hash: row.hash,
    createdAt: toDate(row.created_at),
    ...(revokedAt === undefined ? {} : { revokedAt })
  }
}

export const TokenRepositoryLive = Layer.effect(
  TokenRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const findOne = (rows: Effect.Effect<ReadonlyArray<TokenRow>, unknown>) =>
      rows.pipe(Effect.map((found) => Option.map(Option.fromNullable(found[0]), toToken)), Effect.orDie)

    return TokenRepository.of({
      insert: (token) =>
        sql`INSERT INTO api_tokens (id, user_id, label, hash, created_at, revoked_at)
          VALUES (${token.id}, ${token.userId}, ${token.label}, ${token.hash}, ${token.createdAt.getTime()},
            ${token.revokedAt?.getTime() ?? null})`.pipe(Effect.asVoid, Effect.orDie),
      findByHash: (hash) =>
        findOne(sql<TokenRow>`SELECT * FROM api_tokens WHERE hash = ${hash} ORDER BY created_at, id LIMIT 1`),
      findById: (id) => findOne(sql<TokenRow>`SELECT * FROM api_tokens WHERE id = ${id}`),
      revoke: (id, at) =>
        sql`UPDATE api_tokens SET revoked_at = ${at.getTime()} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
