import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type DomainError, encodeCursor, type ListKey, type Page, type PageRequest, pageRequest } from "@octavo/domain"
import { Context, Effect, Option } from "effect"
import { domain } from "./Errors.js"

/** The public base URL every `urls.*` starts with. */
export class PublicUrl extends Context.Tag("@octavo/http/PublicUrl")<PublicUrl, string>() {}

/** Answers 201 with the new object's location in the `Location` header. */
export const created = <A>(location: string, value: A): Effect.Effect<A> =>
  Effect.as(
    HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, "location", location))),
    value
  )

/** Presents a new object and answers 201 with its own `urls.location` as the `Location` header. */
export const createdAs =
  <A, B extends { readonly urls: { readonly location: string } }>(present: (a: A) => B) => (a: A): Effect.Effect<B> => {
    const body = present(a)
    return created(body.urls.location, body)
  }

/** `limit` and `page` of a list query. */
export interface ListQuery {
  readonly limit?: number | undefined
  readonly page?: string | undefined
}

/** The page of the list `key` that the query asks for; the next page's token, when there is one. */
export const pageOf = <P extends Page<unknown>, E extends DomainError, R>(
  key: ListKey,
  query: ListQuery,
  fetch: (request: PageRequest) => Effect.Effect<P, E, R>
) =>
  domain(Effect.gen(function*() {
    const page = yield* fetch(yield* pageRequest(key, query))
    return {
      page,
      next: Option.match(page.next, {
        onNone: () => ({}),
        onSome: (keyset) => ({ next: { page: encodeCursor(key, keyset) } })
      })
    }
  }))

/** A list answer: the page's items, the total count, and the next page's token when there is one. */
export const listOf = <A, B, E extends DomainError, R>(
  key: ListKey,
  query: ListQuery,
  fetch: (request: PageRequest) => Effect.Effect<Page<A>, E, R>,
  present: (item: A) => B
) => Effect.map(pageOf(key, query, fetch), ({ next, page }) => ({ items: page.items.map(present), count: page.count, ...next }))
