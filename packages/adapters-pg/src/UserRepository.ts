import * as SqlClient from "@effect/sql/SqlClient"
import { conflicts, type User, type UserId, UserRepository } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { conflictOnUnique, type Millis, toDate } from "./Sql.js"

export interface UserRow {
  readonly id: UserId
  readonly display_name: string
  readonly email: string
  readonly photo_url: string | null
  readonly is_instance_admin: boolean
  readonly created_at: Millis
}

export const toUser = (row: UserRow): User => ({
  id: row.id,
  displayName: row.display_name,
  email: row.email,
  ...(row.photo_url === null ? {} : { photoURL: row.photo_url }),
  isInstanceAdmin: row.is_instance_admin,
  createdAt: toDate(row.created_at)
})

export const UserRepositoryLive = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const findOne = (rows: Effect.Effect<ReadonlyArray<UserRow>, unknown>) =>
      rows.pipe(Effect.map((found) => Option.map(Option.fromNullable(found[0]), toUser)), Effect.orDie)

    return UserRepository.of({
      insert: (user) =>
        guarded(
          sql`INSERT INTO users (id, display_name, email, photo_url, is_instance_admin, created_at)
            VALUES (${user.id}, ${user.displayName}, ${user.email}, ${user.photoURL ?? null},
              ${user.isInstanceAdmin}, ${user.createdAt.getTime()})`,
          (constraint) =>
            constraint === "users_email_key"
              ? conflicts.emailTaken(user.email)
              : conflicts.idTaken("user", user.id)
        ).pipe(Effect.asVoid),
      findById: (id) => findOne(sql<UserRow>`SELECT * FROM users WHERE id = ${id}`),
      findByEmail: (email) => findOne(sql<UserRow>`SELECT * FROM users WHERE email = ${email}`),
      findManyByIds: (ids) => {
        if (ids.length === 0) return Effect.succeed([])
        return sql<UserRow>`SELECT * FROM users WHERE id = ANY(${ids}::text[])`.pipe(
          Effect.map((rows) => {
            // In the order asked for, as a lookup would give them.
            const byId = new Map(rows.map((row) => [row.id, toUser(row)]))
            return ids.flatMap((id) => byId.get(id) ?? [])
          }),
          Effect.orDie
        )
      }
    })
  })
)
