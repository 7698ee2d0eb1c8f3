import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  Actor,
  ChangeRequests,
  type Forbidden,
  type InvalidInput,
  type NotFound,
  Collections,
  Content,
  Identity,
  indexPages,
  linksFrom,
  Organizations,
  type OrganizationId,
  pageTree,
  type PageNode,
  pathOf,
  readingOrder,
  type RevisionContent,
  type RevisionId,
  type SpaceId,
  Spaces,
  type TokenId,
  type User
} from "@octavo/domain"
import { Context, Effect, Option, Redacted } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import {
  appMessage,
  type AppPage,
  changeRequestSummary,
  organizationDocument,
  organizationsDocument,
  type PageChange,
  signInDocument,
  spaceDocument
} from "./AppPages.js"
import { type Html, html } from "./Html.js"
import { segmentsOf } from "./Paths.js"

/**
 * The key that signs browser sessions: `OCTAVO_SECRET_KEY` when the server has one (sessions then hold
 * across restarts and servers), else one made at start (sessions end with the process).
 */
export class SessionKey extends Context.Tag("@octavo/http/SessionKey")<SessionKey, Uint8Array>() {}

export const sessionKeyOf = (configured: Redacted.Redacted<Uint8Array> | undefined): Uint8Array =>
  configured === undefined ? new Uint8Array(randomBytes(32)) : Redacted.value(configured)

const SESSION = "octavo_session"
const SESSION_SECONDS = 7 * 24 * 3600
const LIST = { limit: 1000, after: Option.none() }

const appPolicy = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data: https:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

const sign = (key: Uint8Array, payload: string) => createHmac("sha256", key).update(payload).digest("base64url")

/** `<token id>.<expiry>.<signature>`: which token opened the session and until when; never the token itself. */
const sessionValue = (key: Uint8Array, tokenId: TokenId, expires: number) => {
  const payload = `${tokenId}.${expires}`
  return `${payload}.${sign(key, payload)}`
}

const sessionTokenId = (key: Uint8Array, value: string | undefined, now: number): TokenId | undefined => {
  const parts = value?.split(".")
  if (parts === undefined || parts.length !== 3) return undefined
  const [tokenId, expires, signature] = parts as [string, string, string]
  const expected = Buffer.from(sign(key, `${tokenId}.${expires}`))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
  if (!(Number(expires) > now / 1000)) return undefined
  return tokenId as TokenId
}

const page = (body: Html, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(body.text, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { "content-security-policy": appPolicy, "cache-control": "no-store", "x-robots-tag": "noindex", ...headers }
  })

const redirect = (location: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store", ...headers } })

/** A path inside this server to go back to after signing in; anything else is the organizations' list. */
const safeNext = (next: string | null | undefined) =>
  next !== null && next !== undefined && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) ? next : "/o"

const sessionCookie = (value: string, maxAge: number, secure: boolean) =>
  `${SESSION}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`

/** The pages of a revision's content in the order of the tree, hidden ones included (members see them). */
const treeOf = (content: RevisionContent): ReadonlyArray<PageNode> => pageTree(content)

const pageAt = (pages: ReadonlyArray<PageNode>, path: string): PageNode | undefined => {
  if (path === "") return readingOrder(pages)[0]
  const all = (list: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> => list.flatMap((n) => [n, ...all(n.pages)])
  const found = all(pages).find((n) => n.path === path)
  return found === undefined || found.page.kind !== "group" ? found : readingOrder(found.pages)[0]
}

/** What changed between a change request's base and its revision, page by page, in the order of the new tree. */
const changesBetween = (before: RevisionContent, after: RevisionContent): ReadonlyArray<PageChange> => {
  const changes: Array<PageChange> = []
  for (const node of readingOrder(treeOf(after))) {
    const old = before.pages.get(node.page.id)
    if (old === undefined) {
      changes.push({ kind: "added", title: node.page.title, path: node.path, before: "", after: node.page.markdown })
    } else if (old.markdown !== node.page.markdown || old.title !== node.page.title) {
      changes.push({
        kind: "changed",
        title: node.page.title,
        path: node.path,
        before: `# ${old.title}\n\n${old.markdown}`,
        after: `# ${node.page.title}\n\n${node.page.markdown}`
      })
    }
  }
  for (const old of before.pages.values()) {
    if (!after.pages.has(old.id) && old.kind === "document") {
      changes.push({ kind: "removed", title: old.title, path: pathOf(before, old), before: old.markdown, after: "" })
    }
  }
  return changes
}

const handle = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const key = yield* SessionKey
  const identity = yield* Identity
  const url = new URL(request.url, "http://localhost")
  const secure = request.headers["x-forwarded-proto"] === "https"
  const segments = segmentsOf(url.pathname)
  if (segments === undefined) return page(appMessage(undefined, "Not found", "There is nothing at this address."), 404)

  if (segments[0] === "sign-in") {
    if (request.method === "GET") return page(signInDocument(safeNext(url.searchParams.get("next"))))
    const form = new URLSearchParams(yield* Effect.orElseSucceed(request.text, () => ""))
    const next = safeNext(form.get("next"))
    const signedIn = yield* Effect.either(identity.signIn((form.get("token") ?? "").trim()))
    if (signedIn._tag === "Left") return page(signInDocument(next, "That token is unknown or revoked."), 401)
    const expires = Math.floor(Date.now() / 1000) + SESSION_SECONDS
    return redirect(next, { "set-cookie": sessionCookie(sessionValue(key, signedIn.right.tokenId, expires), SESSION_SECONDS, secure) })
  }
  if (segments[0] === "sign-out") return redirect("/sign-in", { "set-cookie": sessionCookie("", 0, secure) })

  // Every other view needs a session whose token still holds.
  const tokenId = sessionTokenId(key, request.cookies[SESSION], Date.now())
  const user = tokenId === undefined
    ? undefined
    : Option.getOrUndefined(Option.getRight(yield* Effect.either(identity.resumeSession(tokenId))))
  if (user === undefined) return redirect(`/sign-in?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`)
  return yield* view(user, segments).pipe(
    Effect.provideService(Actor, user),
    Effect.catchTags({
      NotFound: () => Effect.succeed(page(appMessage(user, "Not found", "There is nothing here, or it is not yours to see."), 404)),
      Forbidden: (e) => Effect.succeed(page(appMessage(user, "Not allowed", e.message), 403)),
      InvalidInput: () => Effect.succeed(page(appMessage(user, "Not found", "There is nothing at this address."), 404))
    })
  )
})

const view = (user: User, segments: ReadonlyArray<string>): Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  NotFound | Forbidden | InvalidInput,
  Actor | Organizations | Collections | Spaces | Content | ChangeRequests
> =>
  Effect.gen(function*() {
    const organizations = yield* Organizations
    const collections = yield* Collections
    const spaces = yield* Spaces
    const content = yield* Content
    const changeRequests = yield* ChangeRequests
    const notFound = page(appMessage(user, "Not found", "There is nothing at this address."), 404)
    const [root, id, kind, rest] = [segments[0], segments[1], segments[2], segments.slice(3)]

    if (root === "o") {
      if (id === undefined) return page(organizationsDocument(user, (yield* organizations.listMine(LIST)).items))
      // A space under its organization's address (members' spaces list it so) is the space's view.
      if (kind === "s" && rest[0] !== undefined) return yield* view(user, ["s", ...rest])
      const organization = yield* organizations.get(id as OrganizationId)
      const all = (yield* collections.list(organization.organization.id, true, LIST)).items
      const found = (yield* spaces.list(organization.organization.id, LIST)).items
      if (kind === undefined) return page(organizationDocument(user, organization, all, found, undefined))
      if (kind === "c" && rest[0] !== undefined) {
        const collection = all.find((c) => c.collection.id === rest[0])
        if (collection === undefined) return notFound
        return page(organizationDocument(user, organization, all, found, collection))
      }
      return notFound
    }

    if (root === "s" && id !== undefined) {
      const spaceId = id as SpaceId
      const space = yield* spaces.get(spaceId)
      const fileHref = (fileId: string) => `/v1/spaces/${spaceId}/content/files/${fileId}/download`
      const heading = (extra?: string) =>
        html`<p><a href="/o/${space.space.organizationId}">← Organization</a></p><p class="group">${space.space.title}${extra ?? ""}</p>`
      const shown = (base: string, treeContent: RevisionContent, path: string, title: string, extra?: Html) => {
        const pages = treeOf(treeContent)
        const node = pageAt(pages, path)
        if (path !== "" && node === undefined) return notFound
        const view: AppPage = {
          base,
          title,
          heading: heading(),
          pages,
          node,
          link: node === undefined ? () => ({ kind: "nowhere" }) : linksFrom(treeContent, indexPages(pages), node.page.id),
          fileHref,
          extra
        }
        return page(spaceDocument(user, view))
      }
      if (kind === "~") {
        const [what, reference, ...pagePath] = rest
        if (what === "changes" && reference !== undefined) {
          const changeRequest = yield* changeRequests.get(spaceId, reference)
          const after = yield* changeRequests.content(spaceId, reference)
          const before = yield* content.revisionOf(spaceId, changeRequest.changeRequest.baseRevisionId)
          const base = `/s/${spaceId}/~/changes/${changeRequest.changeRequest.number}`
          return shown(
            base,
            after.content,
            pagePath.join("/"),
            changeRequest.changeRequest.subject,
            changeRequestSummary(changeRequest, changesBetween(before.content, after.content), base)
          )
        }
        if (what === "revisions" && reference !== undefined) {
          const revision = yield* content.revisionOf(spaceId, reference as RevisionId)
          return shown(`/s/${spaceId}/~/revisions/${reference}`, revision.content, pagePath.join("/"), `Revision ${reference}`)
        }
        return notFound
      }
      const current = yield* content.current(spaceId)
      return shown(`/s/${spaceId}`, current.content, segments.slice(2).join("/"), space.space.title)
    }
    return notFound
  })

const handler = Effect.catchAllCause(handle, (cause) =>
  Effect.zipRight(
    Effect.logError("An app view failed", cause),
    Effect.succeed(page(appMessage(undefined, "Something went wrong", "This page could not be shown. Try again in a moment."), 500))
  ))

/** The app's views behind `urls.app`, and signing in and out, beside the API. */
export const AppRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const services = yield* Effect.context<
      SessionKey | Identity | Organizations | Collections | Spaces | Content | ChangeRequests
    >()
    const served = Effect.provide(handler, services)
    yield* router.get("/sign-in", served)
    yield* router.post("/sign-in", served)
    yield* router.post("/sign-out", served)
    yield* router.get("/o", served)
    yield* router.get("/o/*", served)
    yield* router.get("/s/*", served)
  })
)
