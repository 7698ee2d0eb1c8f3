import * as SqlClient from "@effect/sql/SqlClient"
import { ApiToken, TokenId, TokenRepository } from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { DateFromMillis, execute, findOne, rowOf } from "../shared/Rows.js"
import { UserRow } from "./UserRepository.js"

const TokenRow = rowOf(ApiToken)

export const TokenRepositoryLive = Layer.effect(
  TokenRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const revoke = execute(
      Schema.Struct({ id: TokenId, at: DateFromMillis }),
      ({ at, id }) => sql`UPDATE api_tokens SET revoked_at = ${at} WHERE id = ${id}`
    )

    const findWithUser = findOne(
      Schema.String,
      Schema.Struct({ token: TokenRow, user: Schema.NullOr(UserRow) }),
      (hash) =>
        sql`SELECT to_json(t) AS token, to_json(u) AS user FROM api_tokens t LEFT JOIN users u ON u.id = t.user_id
          WHERE t.hash = ${hash} ORDER BY t.created_at, t.id LIMIT 1`
    )

    return TokenRepository.of({
      insert: execute(TokenRow, (row) => sql`INSERT INTO api_tokens ${sql.insert(row)}`),
      findByHash: findOne(
        Schema.String,
        TokenRow,
        (hash) => sql`SELECT * FROM api_tokens WHERE hash = ${hash} ORDER BY created_at, id LIMIT 1`
      ),
      findWithUser: (hash) =>
        Effect.map(
          findWithUser(hash),
          Option.map(({ token, user }) => ({ token, user: Option.fromNullable(user) }))
        ),
      findById: findOne(TokenId, TokenRow, (id) => sql`SELECT * FROM api_tokens WHERE id = ${id}`),
      revoke: (id, at) => revoke({ id, at })
    })
  })
)
