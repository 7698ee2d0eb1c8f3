import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgStorage } from "@octavo/adapters-pg"
import type { StoragePorts } from "@octavo/domain"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { h1Of, linksIn, spaceWithPages, web, webPost } from "./readerWeb.js"
import { addMember, newUser } from "./scenario.js"

// The views behind `urls.app` (issue 20): signing in with a token, a session cookie that never holds
// the token, and read-only views of organizations, collections, spaces, change requests and revisions
// under the API's permissions.

const appPath = (url: string) => {
  expect(url.startsWith(PUBLIC_URL)).toBe(true)
  return url.slice(PUBLIC_URL.length)
}

const suite = (name: string, storage: Layer.Layer<StoragePorts, unknown>) =>
  layer(testServer(storage), { excludeTestServices: true, timeout: 120_000 })(name, (it) => {
    it.effect("sign in, every urls.app opens, another organization's space is 404, revoking the token ends the session", () =>
      Effect.gen(function*() {
        const admin = yield* newUser("Olga Owner")
        const token = admin.token
        const organization = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body
        const org = organization.id as string
        const collection = (yield* call("POST", `/v1/orgs/${org}/collections`, { token, body: { title: "Handbooks" } })).body
        const guide = yield* spaceWithPages(org, token, "Guide", [
          { title: "Welcome", markdown: "Read [install](install.md).\n" },
          { title: "Install", markdown: "Run it.\n" },
          { title: "Draft", hidden: true }
        ])
        yield* call("POST", `/v1/spaces/${guide.spaceId}/move`, { token, body: { parent: collection.id } })

        // Without a session, views send to the sign-in page and back.
        const away = yield* web(`/o/${org}`)
        expect([away.status, away.headers["location"]]).toEqual([303, `/sign-in?next=${encodeURIComponent(`/o/${org}`)}`])
        const form = yield* web(`/sign-in?next=/o/${org}`)
        expect([form.status, h1Of(form.text)]).toEqual([200, ["Sign in"]])
        const refused = yield* webPost("/sign-in", { token: "oct_wrong", next: `/o/${org}` })
        expect(refused.status).toBe(401)
        expect(refused.text).toContain("That token is unknown or revoked.")
        // Another site's address is never where a sign-in leads.
        const offsite = yield* webPost("/sign-in", { token, next: "//evil.example/" })
        expect(offsite.headers["location"]).toBe("/o")
        const signedIn = yield* webPost("/sign-in", { token, next: `/o/${org}` })
        expect([signedIn.status, signedIn.headers["location"]]).toEqual([303, `/o/${org}`])
        const session = signedIn.setCookies.find((c) => c.name === "octavo_session")!
        expect(session.options).toMatchObject({ path: "/", httpOnly: true, sameSite: "lax" })
        expect(session.value).not.toContain(token)
        const cookie = { cookie: `octavo_session=${session.value}` }

        // The organization, the collection, the space and its pages.
        const home = yield* web(`/o/${org}`, cookie)
        expect([home.status, h1Of(home.text)]).toEqual([200, ["Acme"]])
        expect(linksIn(home.text, `<nav aria-label="Collections and spaces"`)).toEqual([
          `/o/${org}/c/${collection.id}`,
          `/s/${guide.spaceId}`
        ])
        expect(h1Of((yield* web(appPath(collection.urls.app), cookie)).text)).toEqual(["Handbooks"])
        const spaceAnswer = yield* call("GET", `/v1/spaces/${guide.spaceId}`, { token })
        const space = yield* web(appPath(spaceAnswer.body.urls.app), cookie)
        expect([space.status, h1Of(space.text)]).toEqual([200, ["Welcome"]])
        // Members see hidden pages, marked.
        expect(linksIn(space.text, `<nav class="pages"`)).toEqual([
          `/s/${guide.spaceId}/welcome`,
          `/s/${guide.spaceId}/install`,
          `/s/${guide.spaceId}/draft`
        ])
        expect(space.text).toContain(`<a href="/s/${guide.spaceId}/install">install</a>`)
        expect(h1Of((yield* web(`/s/${guide.spaceId}/install`, cookie)).text)).toEqual(["Install"])
        expect((yield* web(`/s/${guide.spaceId}/nope`, cookie)).status).toBe(404)
        expect(h1Of((yield* web(appPath(organization.urls.app), cookie)).text)).toEqual(["Acme"])
        const list = yield* web("/o", cookie)
        expect(linksIn(list.text, "<main")).toEqual([`/o/${org}`])

        // A change request: its pages and what changed against its base; the revision it came from.
        const cr =
          (yield* call("POST", `/v1/spaces/${guide.spaceId}/change-requests`, { token, body: { subject: "Clearer install" } })).body
        yield* call("POST", `/v1/spaces/${guide.spaceId}/change-requests/${cr.id}/content`, {
          token,
          body: {
            changes: [
              { operation: "update_page", page: guide.ids["Install"], document: { markdown: "Run the installer.\n" } },
              { operation: "insert_page", title: "Upgrade", document: { markdown: "Upgrade it.\n" } }
            ]
          }
        })
        const change = yield* web(appPath(cr.urls.app), cookie)
        expect(change.status).toBe(200)
        expect(change.text).toContain("#1 Clearer install")
        expect(change.text).toContain("<ins>+ Run the installer.\n</ins>")
        expect(change.text).toContain("<del>- Run it.\n</del>")
        expect(change.text).toContain(`changed: <a href="/s/${guide.spaceId}/~/changes/1/install">Install</a>`)
        expect(change.text).toContain(`added: <a href="/s/${guide.spaceId}/~/changes/1/upgrade">Upgrade</a>`)
        expect(h1Of((yield* web(`/s/${guide.spaceId}/~/changes/1/upgrade`, cookie)).text)).toEqual(["Upgrade"])
        const revision = (yield* call("GET", `/v1/spaces/${guide.spaceId}/content`, { token })).body
        expect((yield* web(appPath(revision.urls.app), cookie)).status).toBe(200)

        // Permissions as in the API: another organization's space is 404, a reader sees but a guest is refused lists.
        const stranger = yield* newUser("Sven Stranger")
        const other = (yield* call("POST", "/v1/orgs", { token: stranger.token, body: { title: "Elsewhere" } })).body.id as string
        const theirs = yield* spaceWithPages(other, stranger.token, "Theirs", [{ title: "Private" }])
        expect((yield* web(`/s/${theirs.spaceId}`, cookie)).status).toBe(404)
        // What no id can be never reaches storage: 404, not an error.
        for (const odd of ["/s/%00", "/o/a%00b", `/s/${guide.spaceId}/~/changes/%ED%A0%80`, `/o/${"x".repeat(600)}`]) {
          expect([odd, (yield* web(odd, cookie)).status]).toEqual([odd, 404])
        }
        expect((yield* web(`/o/${other}`, cookie)).status).toBe(404)
        const reader = yield* newUser("Rita Reader")
        yield* addMember(org, admin, reader, "read")
        const readerSession = (yield* webPost("/sign-in", { token: reader.token })).setCookies.find((c) => c.name === "octavo_session")!
        expect((yield* web(`/s/${guide.spaceId}/install`, { cookie: `octavo_session=${readerSession.value}` })).status).toBe(200)

        // A forged or altered session is no session; revoking the token ends it; signing out clears it.
        const [id, expires] = session.value.split(".")
        expect((yield* web(`/o/${org}`, { cookie: `octavo_session=${id}.${Number(expires) + 1000}.x` })).status).toBe(303)
        const tokens = yield* call("POST", `/v1/users/${reader.id}/tokens`, { token: reader.token, body: { label: "browser" } })
        const browserSession = (yield* webPost("/sign-in", { token: tokens.body.token })).setCookies.find((c) =>
          c.name === "octavo_session"
        )!
        const browser = { cookie: `octavo_session=${browserSession.value}` }
        expect((yield* web(`/o/${org}`, browser)).status).toBe(200)
        yield* call("DELETE", `/v1/users/${reader.id}/tokens/${tokens.body.id}`, { token: reader.token })
        expect((yield* web(`/o/${org}`, browser)).status).toBe(303)
        const out = yield* webPost("/sign-out", {}, cookie)
        expect([out.status, out.headers["location"]]).toEqual([303, "/sign-in"])
        const cleared = out.setCookies.find((c) => c.name === "octavo_session")
        expect([cleared?.value, Duration.toMillis(cleared?.options?.maxAge ?? Duration.infinity)]).toEqual(["", 0])
      }))
  })

suite("app views: memory", MemoryStorage)
suite("app views: embedded PostgreSQL (PGlite)", PgStorage.pipe(Layer.provide(PgliteClient())))
