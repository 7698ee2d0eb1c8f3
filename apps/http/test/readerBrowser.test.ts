import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SignJWT } from "jose"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { accessibilityProblems, browser } from "./browser.js"
import { call, serverOrigin, testServer } from "./harness.js"
import { publishedSite, spaceWithPages } from "./readerWeb.js"
import { newUser } from "./scenario.js"

// Published sites in a real headless Chromium (issue 20): a reader navigates, searches, signs in
// through a share link and a visitor token; the pages pass axe-core's checks; screenshots of a page in
// the light and the dark theme are kept in apps/http/test-artifacts/.

const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url))

const welcome = "Read [the install guide](install.md#steps).\n\n## Overview\n\nWords about zeppelins.\n\n" +
  "{% hint style=\"info\" %}\nA hint for readers.\n{% endhint %}\n\n" +
  "```js title=\"example.js\"\nconsole.log(\"hello\")\n```\n\n| Column | Value |\n| --- | --- |\n| a | 1 |\n"

layer(testServer(MemoryStorage), { excludeTestServices: true, timeout: 180_000 })("reader in Chromium", (it) => {
  it.scoped("a reader navigates, switches section and space, follows links and anchors, searches; pages pass axe", () =>
    Effect.gen(function*() {
      const origin = yield* serverOrigin
      const admin = yield* newUser("Bea Browser")
      const token = admin.token
      const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body.id as string
      const guide = yield* spaceWithPages(org, token, "Guide", [
        { title: "Welcome", description: "Start here.", markdown: welcome },
        { title: "Install", markdown: "Intro.\n\n## Steps\n\nRun the installer.\n" },
        { title: "Secret", hidden: true }
      ])
      const v2 = yield* spaceWithPages(org, token, "Guide v2", [{ title: "Welcome again" }])
      const api = yield* spaceWithPages(org, token, "API", [{ title: "Endpoints" }])
      const site = yield* publishedSite(org, admin, [guide.spaceId], { basename: "docs" })
      yield* call("POST", `${site.path}/site-spaces`, { token, body: { spaceId: v2.spaceId } })
      yield* call("POST", `${site.path}/sections`, { token, body: { spaceId: api.spaceId, title: "API" } })
      const base = `${origin}/sites/${org}/docs`

      const chromium = yield* browser
      const context = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.newContext({ bypassCSP: true })),
        (c) => Effect.promise(() => c.close())
      )
      const page = yield* Effect.promise(() => context.newPage())
      const go = (url: string) => Effect.promise(() => page.goto(url))
      const run = <A>(f: () => Promise<A>) => Effect.promise(f)

      const opened = yield* go(`${base}/`)
      expect(opened?.status()).toBe(200)
      expect(yield* run(() => page.title())).toBe("Welcome | Acme Docs")
      expect(yield* run(() => page.locator("h1").allTextContents())).toEqual(["Welcome"])
      // The hidden page is not in the sidebar.
      const sidebar = page.getByRole("navigation", { name: "Pages", exact: true })
      expect(yield* run(() => sidebar.getByRole("link").allTextContents())).toEqual(["Welcome", "Install"])

      // Screenshots in both themes, then the accessibility check.
      mkdirSync(ARTIFACTS, { recursive: true })
      for (const scheme of ["light", "dark"] as const) {
        yield* run(() => page.emulateMedia({ colorScheme: scheme }))
        yield* run(() => page.setViewportSize({ width: 1280, height: 800 }))
        yield* run(() => page.screenshot({ path: join(ARTIFACTS, `reader-${scheme}.png`) }))
        const background = yield* run(() => page.evaluate<string>("getComputedStyle(document.body).backgroundColor"))
        expect(background).toBe(scheme === "light" ? "rgb(255, 255, 255)" : "rgb(13, 17, 23)")
        expect(yield* accessibilityProblems(page)).toEqual([])
      }

      // The sidebar, then previous and next.
      yield* run(() => sidebar.getByRole("link", { name: "Install" }).click())
      yield* run(() => page.waitForURL(`${base}/install`))
      expect(yield* run(() => page.locator("h1").textContent())).toBe("Install")
      yield* run(() => page.getByRole("link", { name: "Previous Welcome" }).click())
      yield* run(() => page.waitForURL(`${base}/welcome`))

      // A link to another page's heading lands on it.
      yield* run(() => page.getByRole("link", { name: "the install guide" }).click())
      yield* run(() => page.waitForURL(`${base}/install#steps`))
      expect(yield* run(() => page.locator("#steps").textContent())).toContain("Steps")
      // The outline links to the page's own headings.
      yield* go(`${base}/welcome`)
      yield* run(() =>
        page.getByRole("complementary", { name: "On this page", exact: true }).getByRole("link", { name: "Overview" }).click()
      )
      yield* run(() => page.waitForURL(`${base}/welcome#overview`))

      // Keyboard: the skip link is the first stop and leads to the content.
      yield* go(`${base}/install`)
      yield* run(() => page.keyboard.press("Tab"))
      expect(yield* run(() => page.evaluate<string>("document.activeElement?.textContent"))).toBe("Skip to content")
      yield* run(() => page.keyboard.press("Enter"))
      yield* run(() => page.waitForURL(`${base}/install#content`))

      // Another section, another space of the section.
      yield* run(() => page.getByRole("navigation", { name: "Sections", exact: true }).getByRole("link", { name: "API" }).click())
      yield* run(() => page.waitForURL(/\/api\/?$/))
      expect(yield* run(() => page.locator("h1").textContent())).toBe("Endpoints")
      yield* go(`${base}/`)
      yield* run(() => page.getByRole("navigation", { name: "Spaces", exact: true }).getByRole("link", { name: "Guide v2" }).click())
      expect(yield* run(() => page.locator("h1").textContent())).toBe("Welcome again")
      expect(yield* accessibilityProblems(page)).toEqual([])

      // Search, as a plain form: results link to the sections' anchors.
      yield* go(`${base}/`)
      yield* run(() => page.getByRole("searchbox").pressSequentially("zeppel", { delay: 30 }))
      // While typing, suggestions come from the same search, linking to the sections found.
      const suggestions = page.getByRole("region", { name: "Search suggestions" })
      yield* run(() => suggestions.getByRole("link", { name: "Welcome" }).waitFor())
      expect(yield* run(() => suggestions.getByRole("link", { name: "Overview" }).getAttribute("href"))).toBe(
        `/sites/${org}/docs/welcome#overview`
      )
      yield* run(() => page.getByRole("searchbox").fill("zeppelins"))
      yield* run(() => page.getByRole("searchbox").press("Enter"))
      yield* run(() => page.waitForURL(/~search\?q=zeppelins/))
      yield* run(() => page.getByRole("link", { name: "Overview" }).click())
      yield* run(() => page.waitForURL(`${base}/welcome#overview`))
      expect(yield* accessibilityProblems(page)).toEqual([])

      // The page views the browser made reached insights.
      const views = yield* call("POST", `${site.path}/insights/events/aggregate`, {
        token,
        body: {
          range: "last24Hours",
          select: [{ column: "eventsCount" }],
          where: [{ column: "eventType", operator: "in", values: ["page_view"] }]
        }
      })
      expect(views.body.columns[0].values[0]).toBeGreaterThanOrEqual(8)
    }))

  it.scoped("share links and visitor tokens become cookies; the key and the token leave the URL", () =>
    Effect.gen(function*() {
      const origin = yield* serverOrigin
      const admin = yield* newUser("Sid Shared")
      const token = admin.token
      const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body.id as string
      const guide = yield* spaceWithPages(org, token, "Guide", [{ title: "Start" }, { title: "More" }])
      const shared = yield* publishedSite(org, admin, [guide.spaceId], { basename: "shared", visibility: "share-link" })
      const link = (yield* call("POST", `${shared.path}/share-links`, { token, body: { name: "Partners" } })).body
      const guarded = yield* publishedSite(org, admin, [guide.spaceId], { basename: "private", visibility: "visitor-auth" })
      const secret = (yield* call("GET", `${guarded.path}/publishing/auth`, { token })).body.privateKey as string
      const jwt = yield* Effect.promise(() =>
        new SignJWT({ plan: "pro" }).setProtectedHeader({ alg: "HS256" }).setExpirationTime("1h").sign(new TextEncoder().encode(secret))
      )

      const chromium = yield* browser
      const context = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.newContext()),
        (c) => Effect.promise(() => c.close())
      )
      const page = yield* Effect.promise(() => context.newPage())
      const run = <A>(f: () => Promise<A>) => Effect.promise(f)

      expect((yield* run(() => page.goto(`${origin}/sites/${org}/shared/`)))?.status()).toBe(404)
      const key = new URL(link.urls.published as string).searchParams.get("share")!
      const viaLink = yield* run(() => page.goto(`${origin}/sites/${org}/shared/?share=${key}`))
      expect(viaLink?.status()).toBe(200)
      expect(page.url()).toBe(`${origin}/sites/${org}/shared/`)
      // The cookie opens the other pages.
      yield* run(() => page.getByRole("navigation", { name: "Pages", exact: true }).getByRole("link", { name: "More" }).click())
      yield* run(() => page.waitForURL(`${origin}/sites/${org}/shared/more`))
      expect(yield* run(() => page.locator("h1").textContent())).toBe("More")
      const cookies = yield* run(() => context.cookies())
      expect(cookies.find((c) => c.name === `octavo_share_${shared.id}`)).toMatchObject({ httpOnly: true, path: `/sites/${org}/shared` })

      expect((yield* run(() => page.goto(`${origin}/sites/${org}/private/start`)))?.status()).toBe(401)
      const signedIn = yield* run(() => page.goto(`${origin}/sites/${org}/private/start?jwt_token=${jwt}`))
      expect(signedIn?.status()).toBe(200)
      expect(page.url()).toBe(`${origin}/sites/${org}/private/start`)
      expect((yield* run(() => page.goto(`${origin}/sites/${org}/private/more`)))?.status()).toBe(200)
    }))

  it.scoped("a member signs in with a token, walks organization, space and change request views; others' spaces are 404", () =>
    Effect.gen(function*() {
      const origin = yield* serverOrigin
      const admin = yield* newUser("Mia Member")
      const token = admin.token
      const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body.id as string
      const guide = yield* spaceWithPages(org, token, "Guide", [{ title: "Welcome" }, { title: "Install", markdown: "Run it.\n" }])
      const cr = (yield* call("POST", `/v1/spaces/${guide.spaceId}/change-requests`, { token, body: { subject: "Better install" } })).body
      yield* call("POST", `/v1/spaces/${guide.spaceId}/change-requests/${cr.id}/content`, {
        token,
        body: { changes: [{ operation: "update_page", page: guide.ids["Install"], document: { markdown: "Run the installer.\n" } }] }
      })
      const stranger = yield* newUser("Stan Stranger")
      const other = (yield* call("POST", "/v1/orgs", { token: stranger.token, body: { title: "Elsewhere" } })).body.id as string
      const theirs = yield* spaceWithPages(other, stranger.token, "Theirs", [{ title: "Private" }])

      const chromium = yield* browser
      const context = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.newContext({ bypassCSP: true })),
        (c) => Effect.promise(() => c.close())
      )
      const page = yield* Effect.promise(() => context.newPage())
      const run = <A>(f: () => Promise<A>) => Effect.promise(f)

      yield* run(() => page.goto(`${origin}/o/${org}`))
      expect(page.url()).toBe(`${origin}/sign-in?next=${encodeURIComponent(`/o/${org}`)}`)
      expect(yield* accessibilityProblems(page)).toEqual([])
      yield* run(() => page.getByLabel("API token").fill(token))
      yield* run(() => page.getByRole("button", { name: "Sign in" }).click())
      yield* run(() => page.waitForURL(`${origin}/o/${org}`))
      expect(yield* run(() => page.locator("h1").textContent())).toBe("Acme")
      // The browser holds a session, not the token.
      const cookies = yield* run(() => context.cookies())
      expect(cookies.map((c) => c.name)).toContain("octavo_session")
      expect(cookies.some((c) => c.value.includes(token))).toBe(false)

      yield* run(() => page.getByRole("link", { name: "Guide" }).click())
      expect(yield* run(() => page.locator("h1").textContent())).toBe("Welcome")
      yield* run(() => page.getByRole("navigation", { name: "Pages", exact: true }).getByRole("link", { name: "Install" }).click())
      expect(yield* run(() => page.locator("h1").textContent())).toBe("Install")
      expect(yield* accessibilityProblems(page)).toEqual([])

      yield* run(() => page.goto(`${origin}/s/${guide.spaceId}/~/changes/1`))
      expect(yield* run(() => page.locator("ins").textContent())).toBe("+ Run the installer.\n")
      yield* run(() => page.screenshot({ path: join(ARTIFACTS, "app-change-request.png") }))
      expect(yield* accessibilityProblems(page)).toEqual([])

      expect((yield* run(() => page.goto(`${origin}/s/${theirs.spaceId}`)))?.status()).toBe(404)
      yield* run(() => page.goto(`${origin}/o/${org}`))
      yield* run(() => page.getByRole("button", { name: "Sign out" }).click())
      yield* run(() => page.waitForURL(`${origin}/sign-in`))
      expect((yield* run(() => page.goto(`${origin}/o/${org}`))) !== null && page.url().startsWith(`${origin}/sign-in`)).toBe(true)
    }))
})
