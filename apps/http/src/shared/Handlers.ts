import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type DomainError, encodeCursor, type ListKey, type Page, type PageRequest, pageRequest } from "@octavo/domain"
import { Context, Effect, Option, Schema } from "effect"
import { domain } from "./Errors.js"

/** The public base URL every `urls.*` starts with. */
export class PublicUrl extends Context.Tag("@octavo/http/PublicUrl")<PublicUrl, string>() {}

/** JSON text in parts, as UTF-8 bytes, that an answer joins once. */
export type JsonOut = Array<Uint8Array>

/** The UTF-8 bytes of JSON text, to keep or to write. */
export const jsonBytes = (text: string): Uint8Array => Buffer.from(text, "utf8")

const punctuation = { "[": jsonBytes("["), "]": jsonBytes("]"), ",": jsonBytes(","), "}": jsonBytes("}") } as const

/** Writes JSON text into `out`. */
export const writeJson = (out: JsonOut, text: string) => {
  out.push(Object.hasOwn(punctuation, text) ? punctuation[text as keyof typeof punctuation] : jsonBytes(text))
}

/**
 * An answer of JSON that its presenter writes, in parts joined once. HttpApi would check and encode
 * the whole answer through the endpoint's schema on every request; an answer of thousands of nested
 * items is written instead from parts encoded through their own schemas, each once (see
 * `contentPresenters`).
 */
export const jsonAnswer = (write: (out: JsonOut) => void) => {
  const out: JsonOut = []
  write(out)
  return HttpServerResponse.uint8Array(Buffer.concat(out), { contentType: "application/json" })
}

/** Writes a JSON array of `items` into `out`, each with `write`. */
export const writeArray = <A>(out: JsonOut, items: ReadonlyArray<A>, write: (out: JsonOut, item: A) => void) => {
  out.push(punctuation["["])
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.push(punctuation[","])
    write(out, items[i]!)
  }
  out.push(punctuation["]"])
}

/** The members of the JSON encoding of objects of `schema`: its text without the braces. */
export const jsonMembers = <A, I>(schema: Schema.Schema<A, I>) => {
  const encode = Schema.encodeSync(schema)
  return (value: A): string => JSON.stringify(encode(value)).slice(1, -1)
}

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
