import { Limit, Order, Role, StoredString } from "@octavo/domain"
import { Schema } from "effect"

/** `page` and `limit` of every list. */
export const PageQuery = {
  limit: Schema.optional(Limit),
  page: Schema.optional(StoredString)
}

export const ListOf = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.Struct({
    items: Schema.Array(item),
    count: Schema.Number,
    next: Schema.optional(Schema.Struct({ page: Schema.String }))
  })

export const Created = { status: 201 } as const

export const BooleanFromString = Schema.Literal("true", "false").pipe(
  Schema.transform(Schema.Boolean, { decode: (s) => s === "true", encode: (b) => (b ? "true" : "false") })
)

export { Order, Role }
