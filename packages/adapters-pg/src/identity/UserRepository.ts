import * as SqlClient from "@effect/sql/SqlClient"
import { conflicts, User, UserId, UserRepository } from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { findAll, findOne, rowOf, write } from "../shared/Rows.js"
import { conflictOnUnique } from "../shared/Sql.js"

/** A row of `users`; organizations read it too (a member's user). */
export const UserRow = rowOf(User)

export const UserRepositoryLive = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const insert = write(UserRow, (row) => sql`INSERT INTO users ${sql.insert(row)}`)
    const findById = findOne(UserId, UserRow, (id) => sql`SELECT * FROM users WHERE id = ${id}`)
    const findByEmail = findOne(Schema.String, UserRow, (email) => sql`SELECT * FROM users WHERE email = ${email}`)
    const findMany = findAll(Schema.Array(UserId), UserRow, (ids) => sql`SELECT * FROM users WHERE id = ANY(${ids}::text[])`)

    return UserRepository.of({
      insert: (user) =>
        guarded(insert(user), (constraint) =>
          constraint === "users_email_key"
            ? conflicts.emailTaken(user.email)
            : conflicts.idTaken("user", user.id)),
      findById,
      findByEmail,
      findManyByIds: (ids) => {
        if (ids.length === 0) return Effect.succeed([])
        return findMany(ids).pipe(Effect.map((users) => {
          // In the order asked for, as a lookup would give them.
          const byId = new Map(users.map((user) => [user.id, user]))
          return ids.flatMap((id) => byId.get(id) ?? [])
        }))
      }
    })
  })
)
