import * as Cookies from "@effect/platform/Cookies"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect } from "effect"
import { call } from "./harness.js"
import type { TestUser } from "./scenario.js"

// Helpers of the reader's tests: pages as a browser gets them, and a published site built through the API.

export interface WebAnswer {
  readonly status: number
  readonly text: string
  readonly headers: Readonly<Record<string, string | undefined>>
  /** The cookies the answer sets, by name. */
  readonly cookies: Readonly<Record<string, string>>
  /** Each Set-Cookie as sent, to read its attributes. */
  readonly setCookies: ReadonlyArray<Cookies.Cookie>
}

/** Sends a request as a browser would, redirects not followed; no API conformance check (the answers are HTML and text). */
const browse = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(request)
    const text = yield* response.text
    return {
      status: response.status,
      text,
      headers: response.headers,
      cookies: Cookies.toRecord(response.cookies),
      setCookies: Object.values(response.cookies.cookies)
    } satisfies WebAnswer
  }).pipe(Effect.scoped, Effect.orDie)

/** A GET as a browser sends it. */
export const web = (path: string, headers: Readonly<Record<string, string>> = {}) =>
  browse(HttpClientRequest.setHeaders(HttpClientRequest.get(path), headers))

/** A form posted as a browser posts it (`application/x-www-form-urlencoded`). */
export const webPost = (path: string, form: Readonly<Record<string, string>>, headers: Readonly<Record<string, string>> = {}) =>
  browse(
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.setHeaders(headers),
      HttpClientRequest.bodyText(new URLSearchParams(form).toString(), "application/x-www-form-urlencoded")
    )
  )

/** The hrefs of the links inside the element that starts with `opening` (a landmark of the page). */
export const linksIn = (page: string, opening: string): Array<string> => {
  const start = page.indexOf(opening)
  if (start < 0) return []
  const tag = opening.slice(1).split(/[ >]/)[0]!
  const end = page.indexOf(`</${tag}>`, start)
  return [...page.slice(start, end).matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"))
}

export const titleOf = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1]
export const h1Of = (page: string) => [...page.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""))

const json = <A = ReturnType<typeof JSON.parse>>(answer: { readonly status: number; readonly body: A }, expected = [200, 201]) => {
  if (!expected.includes(answer.status)) throw new Error(`unexpected ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer.body
}

/** A space with pages written as markdown, in order; answers the space id and the pages' ids by title. */
export const spaceWithPages = (
  organizationId: string,
  token: string,
  title: string,
  pages: ReadonlyArray<{ readonly title: string; readonly markdown?: string; readonly hidden?: boolean; readonly description?: string }>
) =>
  Effect.gen(function*() {
    const spaceId = json(yield* call("POST", `/v1/orgs/${organizationId}/spaces`, { token, body: { title } })).id as string
    const answer = json(
      yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token,
        body: {
          changes: pages.map((page) => ({
            operation: "insert_page",
            title: page.title,
            ...(page.hidden === undefined ? {} : { hidden: page.hidden }),
            ...(page.description === undefined ? {} : { description: page.description }),
            document: { markdown: page.markdown ?? `About ${page.title}.\n` }
          }))
        }
      }),
      [200]
    )
    const ids = Object.fromEntries((answer.pages as Array<{ title: string; id: string }>).map((p) => [p.title, p.id]))
    return { spaceId, ids }
  })

/** A published site over the spaces, answered with its API path and id. */
export const publishedSite = (
  organizationId: string,
  user: TestUser,
  spaces: ReadonlyArray<string>,
  fields: Record<string, unknown> = {}
) =>
  Effect.gen(function*() {
    const token = user.token
    const site = json(yield* call("POST", `/v1/orgs/${organizationId}/sites`, { token, body: { title: "Acme Docs", spaces } }))
    const path = `/v1/orgs/${organizationId}/sites/${site.id as string}`
    if (Object.keys(fields).length > 0) json(yield* call("PATCH", path, { token, body: fields }), [200])
    json(yield* call("POST", `${path}/publish`, { token }), [200])
    return { id: site.id as string, path }
  })
