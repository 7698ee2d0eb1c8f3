import * as SqlClient from "@effect/sql/SqlClient"
import { ApiToken, TokenId, TokenRepository } from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { DateFromMillis, execute, findOne, rowOf } from "../shared/Rows.js"

const TokenRow = rowOf(ApiToken)

export const TokenRepositoryLive = Layer.effect(
  TokenRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const revoke = execute(
      Schema.Struct({ id: TokenId, at: DateFromMillis }),
      ({ at, id }) => sql`UPDATE api_tokens SET revoked_at = ${at} WHERE id = ${id}`
    )

    return TokenRepository.of({
      insert: execute(TokenRow, (row) => sql`INSERT INTO api_tokens ${sql.insert(row)}`),
      findByHash: findOne(
        Schema.String,
        TokenRow,
        (hash) => sql`SELECT * FROM api_tokens WHERE hash = ${hash} ORDER BY created_at, id LIMIT 1`
      ),
      findById: findOne(TokenId, TokenRow, (id) => sql`SELECT * FROM api_tokens WHERE id = ${id}`),
      revoke: (id, at) => revoke({ id, at })
    })
  })
)
