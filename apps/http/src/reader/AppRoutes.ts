import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  Actor,
  ChangeRequestContent,
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
import { BrowserPath, pathParams, routeDecoded } from "./Paths.js"

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

/** The sign-in form, going back to `next` once signed in. */
const signInForm = Effect.map(BrowserPath, ({ url }) => page(signInDocument(safeNext(url.searchParams.get("next")))))

const isSecure = (request: HttpServerRequest.HttpServerRequest) => request.headers["x-forwarded-proto"] === "https"

/** Signing in with a token pasted in the form: a session cookie naming the token, then back to `next`. */
const signIn = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const form = new URLSearchParams(yield* Effect.orElseSucceed(request.text, () => ""))
  const next = safeNext(form.get("next"))
  const signedIn = yield* Effect.either((yield* Identity).signIn((form.get("token") ?? "").trim()))
  if (signedIn._tag === "Left") return page(signInDocument(next, "That token is unknown or revoked."), 401)
  const expires = Math.floor(Date.now() / 1000) + SESSION_SECONDS
  const value = sessionValue(yield* SessionKey, signedIn.right.tokenId, expires)
  return redirect(next, { "set-cookie": sessionCookie(value, SESSION_SECONDS, isSecure(request)) })
})

const signOut = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => redirect("/sign-in", { "set-cookie": sessionCookie("", 0, isSecure(request)) })
)

type ViewError = NotFound | Forbidden | InvalidInput

/** A view for a signed-in user: one whose session's token still holds, else to the sign-in form and back. */
const signedIn = <R>(view: (user: User) => Effect.Effect<HttpServerResponse.HttpServerResponse, ViewError, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { url } = yield* BrowserPath
    const tokenId = sessionTokenId(yield* SessionKey, request.cookies[SESSION], Date.now())
    const user = tokenId === undefined
      ? undefined
      : Option.getOrUndefined(Option.getRight(yield* Effect.either((yield* Identity).resumeSession(tokenId))))
    if (user === undefined) return redirect(`/sign-in?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`)
    return yield* view(user).pipe(
      Effect.provideService(Actor, user),
      Effect.catchTags({
        NotFound: () => Effect.succeed(page(appMessage(user, "Not found", "There is nothing here, or it is not yours to see."), 404)),
        Forbidden: (e) => Effect.succeed(page(appMessage(user, "Not allowed", e.message), 403)),
        InvalidInput: () => Effect.succeed(page(appMessage(user, "Not found", "There is nothing at this address."), 404))
      })
    )
  })

const nothingHere = (user: User | undefined) => page(appMessage(user, "Not found", "There is nothing at this address."), 404)

const organizationList = (user: User) =>
  Effect.map(
    Effect.flatMap(Organizations, (organizations) => organizations.listMine(LIST)),
    ({ items }) => page(organizationsDocument(user, items))
  )

/** The organization the route's `:organizationId` names, with its collections and spaces. */
const organizationParts = Effect.gen(function*() {
  const { organizationId } = yield* pathParams("organizationId")
  const organization = yield* (yield* Organizations).get(organizationId as OrganizationId)
  const collections = (yield* (yield* Collections).list(organization.organization.id, true, LIST)).items
  const spaces = (yield* (yield* Spaces).list(organization.organization.id, LIST)).items
  return { organization, collections, spaces }
})

const organizationView = (user: User) =>
  Effect.map(
    organizationParts,
    ({ collections, organization, spaces }) => page(organizationDocument(user, organization, collections, spaces, undefined))
  )

const collectionView = (user: User) =>
  Effect.gen(function*() {
    const { collections, organization, spaces } = yield* organizationParts
    const { collectionId } = yield* pathParams("collectionId")
    const collection = collections.find((c) => c.collection.id === collectionId)
    if (collection === undefined) return nothingHere(user)
    return page(organizationDocument(user, organization, collections, spaces, collection))
  })

/** Any other address under an organization's: nothing, once the organization is known to be the user's. */
const elsewhereInOrganization = (user: User) => Effect.as(organizationParts, nothingHere(user))

/** The space the route's `:spaceId` names, and how its views show a tree of its pages at a path. */
const spaceParts = (user: User) =>
  Effect.gen(function*() {
    const { spaceId } = yield* pathParams("spaceId")
    const space = yield* (yield* Spaces).get(spaceId as SpaceId)
    const fileHref = (fileId: string) => `/v1/spaces/${spaceId}/content/files/${fileId}/download`
    const heading = html`<p><a href="/o/${space.space.organizationId}">← Organization</a></p><p class="group">${space.space.title}</p>`
    /** The page at `path` in a revision's tree (the first one for ""), under the view's `base`. */
    const shown = (base: string, treeContent: RevisionContent, path: string, title: string, extra?: Html) => {
      const pages = treeOf(treeContent)
      const node = pageAt(pages, path)
      if (path !== "" && node === undefined) return nothingHere(user)
      const view: AppPage = {
        base,
        title,
        heading,
        pages,
        node,
        link: node === undefined ? () => ({ kind: "nowhere" }) : linksFrom(treeContent, indexPages(pages), node.page.id),
        fileHref,
        extra
      }
      return page(spaceDocument(user, view))
    }
    return { spaceId: spaceId as SpaceId, space, shown }
  })

/** A page of the space as it reads now. */
const currentView = (user: User) =>
  Effect.gen(function*() {
    const { shown, space, spaceId } = yield* spaceParts(user)
    const { "*": path } = yield* pathParams("*")
    const current = yield* (yield* Content).current(spaceId)
    return shown(`/s/${spaceId}`, current.content, path, space.space.title)
  })

/** A page of a change request's revision, with what it changes. */
const changeRequestView = (user: User) =>
  Effect.gen(function*() {
    const { shown, spaceId } = yield* spaceParts(user)
    const { "*": path, reference } = yield* pathParams("reference", "*")
    const changeRequests = yield* ChangeRequests
    const changeRequest = yield* changeRequests.get(spaceId, reference)
    const after = yield* (yield* ChangeRequestContent).content(spaceId, reference)
    const before = yield* (yield* Content).revisionOf(spaceId, changeRequest.changeRequest.baseRevisionId)
    const base = `/s/${spaceId}/~/changes/${changeRequest.changeRequest.number}`
    const summary = changeRequestSummary(changeRequest, changesBetween(before.content, after.content), base)
    return shown(base, after.content, path, changeRequest.changeRequest.subject, summary)
  })

/** A page of one of the space's revisions. */
const revisionView = (user: User) =>
  Effect.gen(function*() {
    const { shown, spaceId } = yield* spaceParts(user)
    const { "*": path, reference } = yield* pathParams("reference", "*")
    const revision = yield* (yield* Content).revisionOf(spaceId, reference as RevisionId)
    return shown(`/s/${spaceId}/~/revisions/${reference}`, revision.content, path, `Revision ${reference}`)
  })

/** Any other address under a space's `~`: nothing, once the space is known to be the user's. */
const elsewhereInSpace = (user: User) => Effect.as(spaceParts(user), nothingHere(user))

/** A space's views at `/s/{space}`, and under its organization's address (members' spaces list it so). */
const spaceViews = (at: "/s" | "/o/:organizationId/s") => <E, R>(router: HttpRouter.HttpRouter<E, R>) =>
  router.pipe(
    HttpRouter.get(`${at}/:spaceId`, signedIn(currentView)),
    HttpRouter.get(`${at}/:spaceId/*`, signedIn(currentView)),
    HttpRouter.get(`${at}/:spaceId/~`, signedIn(elsewhereInSpace)),
    HttpRouter.get(`${at}/:spaceId/~/*`, signedIn(elsewhereInSpace)),
    HttpRouter.get(`${at}/:spaceId/~/changes/:reference`, signedIn(changeRequestView)),
    HttpRouter.get(`${at}/:spaceId/~/changes/:reference/*`, signedIn(changeRequestView)),
    HttpRouter.get(`${at}/:spaceId/~/revisions/:reference`, signedIn(revisionView)),
    HttpRouter.get(`${at}/:spaceId/~/revisions/:reference/*`, signedIn(revisionView))
  )

/** Signing in and out, and the views of what a user may read: their organizations, collections and spaces. */
const appRoutes = HttpRouter.empty.pipe(
  HttpRouter.get("/sign-in", signInForm),
  HttpRouter.post("/sign-in", signIn),
  HttpRouter.post("/sign-out", signOut),
  HttpRouter.get("/o", signedIn(organizationList)),
  HttpRouter.get("/o/:organizationId", signedIn(organizationView)),
  HttpRouter.get("/o/:organizationId/c/:collectionId", signedIn(collectionView)),
  HttpRouter.get("/o/:organizationId/c/:collectionId/*", signedIn(collectionView)),
  HttpRouter.get("/o/:organizationId/*", signedIn(elsewhereInOrganization)),
  spaceViews("/s"),
  spaceViews("/o/:organizationId/s")
)

const failed = (cause: unknown) =>
  Effect.zipRight(
    Effect.logError("An app view failed", cause),
    Effect.succeed(page(appMessage(undefined, "Something went wrong", "This page could not be shown. Try again in a moment."), 500))
  )

/** The app's views behind `urls.app`, and signing in and out, beside the API, on their own router. */
export const AppRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const services = yield* Effect.context<
      SessionKey | Identity | Organizations | Collections | Spaces | Content | ChangeRequests | ChangeRequestContent
    >()
    const views = yield* routeDecoded(appRoutes, {
      invalid: Effect.succeed(nothingHere(undefined)),
      // A path of no view's (a letter in another case) is still behind the sign-in.
      unrouted: signedIn(() => Effect.succeed(nothingHere(undefined)))
    })
    const served = views.pipe(Effect.catchAllCause(failed), Effect.provide(services))
    yield* router.get("/sign-in", served)
    yield* router.post("/sign-in", served)
    yield* router.post("/sign-out", served)
    yield* router.get("/o", served)
    yield* router.get("/o/*", served)
    yield* router.get("/s/*", served)
  })
)
