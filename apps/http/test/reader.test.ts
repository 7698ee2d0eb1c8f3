import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import type { StoragePorts } from "@octavo/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SignJWT } from "jose"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { h1Of, linksIn, publishedSite, spaceWithPages, titleOf, web } from "./readerWeb.js"
import { newUser } from "./scenario.js"
import { png } from "./site.js"

// Published sites in a browser (issue 20): what a visitor's browser and a program get at a site's
// published URL, on every storage. The browser itself is driven in readerBrowser.test.ts.

const guidePages = [
  {
    title: "Welcome",
    description: "Start here.",
    markdown: "Read [the install guide](install.md#steps) or [nowhere](missing.md).\n\n" +
      "# Overview\n\nWords about zeppelins.\n\n{% hint style=\"warning\" %}\nMind the <b>gap</b>.\n{% endhint %}\n"
  },
  { title: "Install", markdown: "Intro.\n\n## Steps\n\n```sh title=\"shell\"\nnpm i acme\n```\n" },
  { title: "Secret", hidden: true, markdown: "Hidden but reachable.\n" }
]

const suite = (name: string, storage: Layer.Layer<StoragePorts, unknown>) =>
  layer(testServer(storage), { excludeTestServices: true, timeout: 120_000 })(name, (it) => {
    it.effect("a public site: pages, sidebar, links, anchors, outline, markdown, llms.txt, sitemap, caching", () =>
      Effect.gen(function*() {
        const admin = yield* newUser("Reed Reader")
        const org = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
        const guide = yield* spaceWithPages(org, admin.token, "Guide", guidePages)
        const site = yield* publishedSite(org, admin, [guide.spaceId], { basename: "docs" })
        const base = `/sites/${org}/docs`

        const home = yield* web(`${base}/`)
        expect(home.status).toBe(200)
        expect(home.headers["content-type"]).toBe("text/html; charset=utf-8")
        expect(titleOf(home.text)).toBe("Welcome | Acme Docs")
        expect(home.text).toContain(`<meta name="description" content="Start here.">`)
        expect(h1Of(home.text)).toEqual(["Welcome"])
        // The sidebar lists the pages but the hidden one; the current page is marked.
        expect(linksIn(home.text, `<nav class="pages"`)).toEqual([`${base}/welcome`, `${base}/install`])
        expect(home.text).toContain(`<a href="${base}/welcome" aria-current="page">Welcome</a>`)
        // Links between pages keep their anchor; a broken one is plain text; raw HTML is kept where its allowlist lets it (issue 40).
        expect(home.text).toContain(`<a href="${base}/install#steps">the install guide</a>`)
        expect(home.text).toContain(" or nowhere.")
        expect(home.text).toContain("Mind the <b>gap</b>.")
        expect(home.text).toContain(`<div class="hint hint-warning" role="note">`)
        // Headings carry their anchors, listed in the outline; the page title is the only h1.
        expect(home.text).toContain(`<h2 id="overview">Overview`)
        expect(linksIn(home.text, `<aside class="outline"`)).toEqual(["#overview"])
        expect(linksIn(home.text, `<nav class="pagination"`)).toEqual([`${base}/install`])
        // The site's address and its id both open it; the organization by id (it has no hostname).
        expect((yield* web(`/sites/${org}/${site.id}/install`)).status).toBe(200)

        const install = yield* web(`${base}/install`)
        expect(install.text).toContain(`<div class="code-title">shell</div>`)
        expect(linksIn(install.text, `<nav class="pagination"`)).toEqual([`${base}/welcome`])
        const hidden = yield* web(`${base}/secret`)
        expect([hidden.status, h1Of(hidden.text)]).toEqual([200, ["Secret"]])
        for (
          const missing of [
            `${base}/nope`,
            `/sites/${org}/other/`,
            `/sites/nobody/docs/`,
            `${base}/~files/x/y`,
            `/sites/%00/docs/`,
            `${base}/a%00b`,
            `/sites/${org}/${"x".repeat(600)}/`
          ]
        ) {
          const answer = yield* web(missing)
          expect([missing, answer.status, answer.headers["content-type"]]).toEqual([missing, 404, "text/html; charset=utf-8"])
        }

        // For programs: each page's markdown, llms.txt and llms-full.txt, robots.txt and the sitemap.
        const markdown = yield* web(`${base}/install.md`)
        expect([markdown.status, markdown.headers["content-type"], markdown.text]).toEqual([
          200,
          "text/markdown; charset=utf-8",
          "# Install\n\nIntro.\n\n## Steps\n\n```sh title=\"shell\"\nnpm i acme\n```\n"
        ])
        const llms = yield* web(`${base}/llms.txt`)
        expect(llms.text).toBe(
          `# Acme Docs\n\n## Guide\n\n- [Welcome](${PUBLIC_URL}${base}/welcome.md): Start here.\n- [Install](${PUBLIC_URL}${base}/install.md)\n`
        )
        const full = yield* web(`${base}/llms-full.txt`)
        expect(full.text).toContain("# Welcome\n\nStart here.\n\nRead [the install guide]")
        expect(full.text).toContain("# Install\n\nIntro.\n\n## Steps")
        expect(full.text).not.toContain("Hidden but reachable")
        expect((yield* web(`${base}/robots.txt`)).text).toBe(`User-agent: *\nAllow: /\nSitemap: ${PUBLIC_URL}${base}/sitemap.xml\n`)
        const sitemap = yield* web(`${base}/sitemap.xml`)
        expect([...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
          `${PUBLIC_URL}${base}/welcome`,
          `${PUBLIC_URL}${base}/install`
        ])

        // Caching: an ETag that a conditional request meets with 304, and changes with the content.
        expect(install.headers["cache-control"]).toBe("public, no-cache")
        const etag = install.headers["etag"]!
        expect((yield* web(`${base}/install`, { "if-none-match": etag })).status).toBe(304)
        yield* call("POST", `/v1/spaces/${guide.spaceId}/content`, {
          token: admin.token,
          body: { changes: [{ operation: "update_page", page: guide.ids["Install"], document: { markdown: "## Steps\n\nChanged.\n" } }] }
        })
        const changed = yield* web(`${base}/install`, { "if-none-match": etag })
        expect(changed.status).toBe(200)
        expect(changed.text).toContain("Changed.")
        // Compressed for clients that take it.
        const zipped = yield* web(`${base}/welcome`, { "accept-encoding": "gzip" })
        expect(zipped.headers["content-encoding"]).toBe("gzip")
        expect(zipped.headers["vary"]).toBe("Accept-Encoding")

        // The style sheet is served with its content hash, for a year, under the site and under /sites/~assets.
        const sheet = /href="([^"]+\/~assets\/(reader-[0-9a-f]+\.css))"/.exec(home.text)!
        expect(sheet[1]).toBe(`${base}/~assets/${sheet[2]}`)
        for (const path of [sheet[1]!, `/sites/~assets/${sheet[2]}`]) {
          const css = yield* web(path)
          expect([css.status, css.headers["cache-control"], css.headers["content-type"]]).toEqual([
            200,
            "public, max-age=31536000, immutable",
            "text/css; charset=utf-8"
          ])
        }
        expect((yield* web(`${base}/~assets/reader-0.css`)).status).toBe(404)
        expect(home.headers["content-security-policy"]).toContain("default-src 'none'")

        // Images come from the space's files, served under the site.
        yield* call("POST", `/v1/spaces/${guide.spaceId}/content`, {
          token: admin.token,
          body: {
            changes: [
              {
                operation: "insert_files",
                files: [{ name: "diagram.png", contentType: "image/png", base64: Buffer.from(png).toString("base64") }]
              },
              { operation: "update_page", page: guide.ids["Install"], document: { markdown: "![Diagram](.gitbook/assets/diagram.png)\n" } }
            ]
          }
        })
        const pictured = yield* web(`${base}/install`)
        const src = /<img src="([^"]+)" alt="Diagram"/.exec(pictured.text)![1]!
        expect(src.startsWith(`${base}/~files/${guide.spaceId}/`)).toBe(true)
        const image = yield* web(src)
        expect([image.status, image.headers["content-type"]]).toEqual([200, "image/png"])

        // Behind its proxy (X-Forwarded-Host naming the proxy's host), the site's links, cookies and URLs are the proxy's.
        yield* call("PATCH", site.path, { token: admin.token, body: { proxy: "docs.example.com/guide" } })
        const forwarded = { "x-forwarded-host": "docs.example.com" }
        const proxied = yield* web(`${base}/install`, forwarded)
        expect(linksIn(proxied.text, `<nav class="pages"`)).toEqual(["/guide/welcome", "/guide/install"])
        expect(proxied.text).toContain(`href="/guide/~assets/${sheet[2]}"`)
        expect(proxied.headers["vary"]).toBe("Accept-Encoding, X-Forwarded-Host")
        expect((yield* web(`${base}/llms.txt`, forwarded)).text).toContain("(https://docs.example.com/guide/welcome.md)")
        // Another host is not the proxy: the native addresses stay.
        expect(linksIn((yield* web(`${base}/install`, { "x-forwarded-host": "evil.example" })).text, `<nav class="pages"`)).toEqual([
          `${base}/welcome`,
          `${base}/install`
        ])

        // The page's layout, from its front matter: a hidden title stays the page's heading for assistive technology.
        yield* call("POST", `/v1/spaces/${guide.spaceId}/content`, {
          token: admin.token,
          body: {
            changes: [{
              operation: "insert_page",
              title: "Plain",
              document: {
                markdown:
                  "---\nlayout:\n  title:\n    visible: false\n  outline:\n    visible: false\n  pagination:\n    visible: false\n" +
                  "  tableOfContents:\n    visible: false\n---\n\n## Heading\n\nText.\n"
              }
            }]
          }
        })
        const plain = yield* web(`${base}/plain`)
        expect(plain.status).toBe(200)
        expect(plain.text).toContain(`<h1 class="visually-hidden">Plain</h1>`)
        expect(plain.text).not.toContain(`<nav class="pagination"`)
        expect(plain.text).not.toContain(`<nav class="pages"`)
        expect(plain.text).toContain(`<aside class="outline" aria-label="On this page"></aside>`)

        // Unpublished, the site is gone from the browser.
        yield* call("POST", `${site.path}/unpublish`, { token: admin.token })
        expect((yield* web(`${base}/`)).status).toBe(404)
        expect((yield* web(`${base}/llms.txt`)).status).toBe(404)
      }))

    it.effect("sections, groups and site spaces: tabs, a space switcher, paths", () =>
      Effect.gen(function*() {
        const admin = yield* newUser("Sam Sections")
        const token = admin.token
        const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body.id as string
        const guide = yield* spaceWithPages(org, token, "Guide", [{ title: "Start" }])
        const v2 = yield* spaceWithPages(org, token, "Guide v2", [{ title: "Start again" }])
        const api = yield* spaceWithPages(org, token, "API", [{ title: "Endpoints" }])
        const cli = yield* spaceWithPages(org, token, "CLI", [{ title: "Commands" }])
        const site = yield* publishedSite(org, admin, [guide.spaceId], { basename: "docs" })
        yield* call("POST", `${site.path}/site-spaces`, { token, body: { spaceId: v2.spaceId } })
        const apiSection = (yield* call("POST", `${site.path}/sections`, { token, body: { spaceId: api.spaceId, title: "API" } })).body
        const cliSection = (yield* call("POST", `${site.path}/sections`, { token, body: { spaceId: cli.spaceId, title: "CLI" } })).body
        yield* call("POST", `${site.path}/section-groups`, { token, body: { title: "Tools", sections: [cliSection.id] } })
        const base = `/sites/${org}/docs`

        const home = yield* web(`${base}/`)
        expect(h1Of(home.text)).toEqual(["Start"])
        // Tabs: the default section, the API section, and the group holding the CLI section.
        const tabs = linksIn(home.text, `<nav class="sections"`)
        expect(tabs).toEqual([`${base}/`, `${base}/${apiSection.path}`, `${base}/${cliSection.path}`])
        expect(home.text).toContain("<summary>Tools</summary>")
        // Two site spaces in the default section: a switcher.
        const switcher = linksIn(home.text, `<nav class="spaces"`)
        expect(switcher).toHaveLength(2)
        const second = yield* web(switcher[1]!)
        expect(h1Of(second.text)).toEqual(["Start again"])
        const apiPage = yield* web(`${base}/${apiSection.path}`)
        expect(h1Of(apiPage.text)).toEqual(["Endpoints"])
        expect(apiPage.text).toContain(`<a href="${base}/${apiSection.path}" aria-current="true">API</a>`)
        expect(linksIn(apiPage.text, `<nav class="spaces"`)).toEqual([])
        expect(h1Of((yield* web(`${base}/${cliSection.path}/commands`)).text)).toEqual(["Commands"])

        // A space written in French is read in French: its page's language, and the titles localized in French.
        const group = (yield* call("GET", `${site.path}/section-groups`, { token })).body.items[0].id as string
        const v2SiteSpace = ((yield* call("GET", `${site.path}/site-spaces?limit=100`, { token })).body.items as Array<
          { id: string; space: { id: string } }
        >).find((s) => s.space.id === v2.spaceId)!.id
        const french = { fr: "Référence" }
        expect((yield* call("PATCH", `${site.path}/sections/${apiSection.id}`, { token, body: { localizedTitle: french } })).status).toBe(
          200
        )
        yield* call("PATCH", `${site.path}/section-groups/${group}`, { token, body: { localizedTitle: { fr: "Outils" } } })
        yield* call("PATCH", `${site.path}/site-spaces/${v2SiteSpace}`, { token, body: { localizedTitle: { fr: "Guide, 2e édition" } } })
        expect((yield* call("PATCH", `/v1/spaces/${v2.spaceId}`, { token, body: { language: "fr" } })).status).toBe(200)
        const inFrench = (yield* web(switcher[1]!)).text
        expect(inFrench).toContain(`<html lang="fr">`)
        expect(inFrench).toContain(`<a href="${base}/${apiSection.path}">Référence</a>`)
        expect(inFrench).toContain("<summary>Outils</summary>")
        expect(inFrench).toContain(`aria-current="page">Guide, 2e édition</a>`)
        // The other spaces have no language: English, and the titles as they are.
        const inEnglish = (yield* web(`${base}/`)).text
        expect(inEnglish).toContain(`<html lang="en">`)
        expect(inEnglish).toContain(`<a href="${base}/${apiSection.path}">API</a>`)
        expect(inEnglish).toContain("<summary>Tools</summary>")
        expect(inEnglish).toContain(`>Guide v2</a>`)
      }))

    it.effect("unlisted, share-link and visitor-auth sites: headers, cookies, redirects, 404 and 401", () =>
      Effect.gen(function*() {
        const admin = yield* newUser("Vera Visibility")
        const token = admin.token
        const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body.id as string
        const guide = yield* spaceWithPages(org, token, "Guide", [{ title: "Start" }])

        const unlisted = yield* publishedSite(org, admin, [guide.spaceId], { basename: "unlisted", visibility: "unlisted" })
        const unlistedPage = yield* web(`/sites/${org}/unlisted/`)
        expect([unlistedPage.status, unlistedPage.headers["x-robots-tag"]]).toEqual([200, "noindex"])
        expect((yield* web(`/sites/${org}/unlisted/robots.txt`)).text).toBe("User-agent: *\nDisallow: /\n")
        expect((yield* web(`/sites/${org}/unlisted/sitemap.xml`)).status).toBe(404)
        expect(unlisted.id).toBeDefined()

        const shared = yield* publishedSite(org, admin, [guide.spaceId], { basename: "shared", visibility: "share-link" })
        const link = (yield* call("POST", `${shared.path}/share-links`, { token, body: { name: "Partners" } })).body
        const key = new URL(link.urls.published as string).searchParams.get("share")!
        expect((yield* web(`/sites/${org}/shared/start`)).status).toBe(404)
        expect((yield* web(`/sites/${org}/shared/start?share=${"x".repeat(32)}`)).status).toBe(404)
        const opened = yield* web(`/sites/${org}/shared/start?share=${key}&tab=1`)
        expect([opened.status, opened.headers["location"]]).toEqual([302, `/sites/${org}/shared/start?tab=1`])
        const shareCookie = opened.setCookies.find((c) => c.name === `octavo_share_${shared.id}`)!
        expect(shareCookie).toMatchObject({ value: key, options: { path: `/sites/${org}/shared`, httpOnly: true, sameSite: "lax" } })
        expect(shareCookie.options?.maxAge).toBeDefined()
        const withCookie = yield* web(`/sites/${org}/shared/start`, { cookie: `octavo_share_${shared.id}=${key}` })
        expect([withCookie.status, withCookie.headers["x-robots-tag"], withCookie.headers["referrer-policy"]]).toEqual([
          200,
          "noindex",
          "no-referrer"
        ])
        expect(withCookie.headers["cache-control"]).toBe("private, no-cache")
        // A revoked link stops opening it, cookie or not.
        yield* call("PATCH", `${shared.path}/share-links/${link.id}`, { token, body: { active: false } })
        expect((yield* web(`/sites/${org}/shared/start`, { cookie: `octavo_share_${shared.id}=${key}` })).status).toBe(404)

        const guarded = yield* publishedSite(org, admin, [guide.spaceId], { basename: "private", visibility: "visitor-auth" })
        const secret = (yield* call("GET", `${guarded.path}/publishing/auth`, { token })).body.privateKey as string
        const sign = (expires: string | number) =>
          Effect.promise(() =>
            new SignJWT({ plan: "pro" }).setProtectedHeader({ alg: "HS256" }).setExpirationTime(expires).sign(
              new TextEncoder().encode(secret)
            )
          )
        const refused = yield* web(`/sites/${org}/private/start`)
        expect([refused.status, refused.headers["x-robots-tag"]]).toEqual([401, "noindex"])
        expect(h1Of(refused.text)).toEqual(["Sign in to read these docs"])
        const expired = yield* sign(Math.floor(Date.now() / 1000) - 120)
        expect((yield* web(`/sites/${org}/private/start?jwt_token=${expired}`)).status).toBe(401)
        const valid = yield* sign("1h")
        const signedIn = yield* web(`/sites/${org}/private/start?jwt_token=${valid}`)
        expect([signedIn.status, signedIn.headers["location"]]).toEqual([302, `/sites/${org}/private/start`])
        const visitorCookie = signedIn.setCookies.find((c) => c.name === `octavo_visitor_${guarded.id}`)!
        expect(visitorCookie.value).toBe(valid)
        expect(visitorCookie.options?.maxAge).toBeDefined()
        const read = yield* web(`/sites/${org}/private/start`, { cookie: `octavo_visitor_${guarded.id}=${valid}` })
        expect([read.status, h1Of(read.text)]).toEqual([200, ["Start"]])
        // With a fallback URL, visitors without a token are sent there with where they were going.
        yield* call("PATCH", `${guarded.path}/publishing/auth`, { token, body: { fallbackURL: "https://login.example.com/in" } })
        const sent = yield* web(`/sites/${org}/private/start`)
        expect([sent.status, sent.headers["location"]]).toEqual([
          302,
          `https://login.example.com/in?location=${encodeURIComponent(`/sites/${org}/private/start`)}`
        ])
      }))

    it.effect("adaptive content hides sections by claims; page views, markdown reads and searches reach insights", () =>
      Effect.gen(function*() {
        const admin = yield* newUser("Ada Adaptive")
        const token = admin.token
        const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body.id as string
        const guide = yield* spaceWithPages(org, token, "Guide", [{
          title: "Start",
          markdown: "Intro.\n\n## Zeppelins\n\nLighter than air.\n"
        }])
        const pro = yield* spaceWithPages(org, token, "Pro", [{ title: "Pro features" }])
        const site = yield* publishedSite(org, admin, [guide.spaceId], { basename: "docs", adaptiveContent: { enabled: true } })
        const section = (yield* call("POST", `${site.path}/sections`, { token, body: { spaceId: pro.spaceId, title: "Pro" } })).body
        yield* call("PATCH", `${site.path}/sections/${section.id}`, { token, body: { condition: "visitor.claims.plan == \"pro\"" } })
        const secret = (yield* call("GET", `${site.path}/publishing/auth`, { token })).body.privateKey as string
        const tokenFor = (plan: string) =>
          Effect.promise(() =>
            new SignJWT({ plan }).setProtectedHeader({ alg: "HS256" }).setExpirationTime("1h").sign(new TextEncoder().encode(secret))
          )
        const base = `/sites/${org}/docs`
        const cookieFor = (jwt: string) => ({ cookie: `octavo_visitor_${site.id}=${jwt}` })

        const anonymous = yield* web(`${base}/`)
        expect(linksIn(anonymous.text, `<nav class="sections"`)).toEqual([`${base}/`])
        expect((yield* web(`${base}/${section.path}`)).status).toBe(404)
        const free = yield* web(`${base}/`, cookieFor(yield* tokenFor("free")))
        expect(linksIn(free.text, `<nav class="sections"`)).toEqual([`${base}/`])
        const proToken = yield* tokenFor("pro")
        const proHome = yield* web(`${base}/`, cookieFor(proToken))
        expect(linksIn(proHome.text, `<nav class="sections"`)).toEqual([`${base}/`, `${base}/${section.path}`])
        expect(h1Of((yield* web(`${base}/${section.path}`, cookieFor(proToken))).text)).toEqual(["Pro features"])

        // Unsigned claims from the URL: only those the adaptive schema declares under `unsigned`, read by their type.
        const schema = yield* call("PUT", `${site.path}/adaptive-schema`, {
          token,
          body: {
            jsonSchema: {
              type: "object",
              properties: {
                unsigned: {
                  type: "object",
                  description: "Unsigned claims of the site visitor.",
                  properties: { beta: { type: "boolean", description: "Beta tester" } },
                  additionalProperties: false
                }
              },
              additionalProperties: false
            }
          }
        })
        expect(schema.status, JSON.stringify(schema.body)).toBe(200)
        yield* call("PATCH", `${site.path}/sections/${section.id}`, {
          token,
          body: { condition: "visitor.claims.plan == \"pro\" || visitor.claims.unsigned.beta == true" }
        })
        const tabsFor = (query: string) => Effect.map(web(`${base}/${query}`), (answer) => linksIn(answer.text, `<nav class="sections"`))
        expect(yield* tabsFor("?visitor.beta=true")).toEqual([`${base}/`, `${base}/${section.path}`])
        expect(yield* tabsFor("?visitor.beta=yes")).toEqual([`${base}/`])
        expect(yield* tabsFor("?visitor.plan=pro")).toEqual([`${base}/`])
        expect((yield* web(`${base}/?visitor.beta=true`)).headers["cache-control"]).toBe("private, no-cache")

        // Search: the sections found link to their headings' anchors.
        const searched = yield* web(`${base}/~search?q=zeppelin`)
        expect(searched.status).toBe(200)
        expect(linksIn(searched.text, `<ul class="results"`)).toEqual([`${base}/start`, `${base}/start#zeppelins`])
        expect((yield* web(`${base}/~search?q=${"long ".repeat(200)}`)).text).toContain("The search could not be run")
        yield* web(`${base}/start.md`)
        const suggested = yield* web(`${base}/~search.json?q=zeppel`)
        expect(JSON.parse(suggested.text)).toEqual({
          query: "zeppel",
          results: [{ title: "Start", url: `${base}/start`, sections: [{ title: "Zeppelins", url: `${base}/start#zeppelins` }] }]
        })

        // Every view was recorded on the server, with its page and site space.
        const aggregate = (body: object) =>
          call("POST", `${site.path}/insights/events/aggregate`, { token, body: { range: "last24Hours", ...body } })
        const byType = yield* aggregate({
          select: [{ column: "eventType" }, { column: "eventsCount" }],
          groupBy: [{ column: "eventType" }]
        })
        expect(byType.status, JSON.stringify(byType.body)).toBe(200)
        const counts = Object.fromEntries(
          (byType.body.columns[0].values as Array<string>).map((type, i) => [type, byType.body.columns[1].values[i]])
        )
        expect(counts).toEqual({ page_view: 8, search_type_query: 2, page_markdown_request: 1 })
        const pages = yield* aggregate({
          select: [{ column: "urlPath" }, { column: "siteSpace" }, { column: "eventsCount" }],
          groupBy: [{ column: "urlPath" }, { column: "siteSpace" }],
          where: [{ column: "eventType", operator: "in", values: ["page_view"] }]
        })
        expect(pages.status, JSON.stringify(pages.body)).toBe(200)
        const siteSpaces = (yield* call("GET", `${site.path}/site-spaces`, { token })).body.items as Array<
          { id: string; space: { id: string } }
        >
        const proSiteSpace = siteSpaces.find((s) => s.space.id === pro.spaceId)
        const rows = (pages.body.columns[0].values as Array<string>).map((
          path,
          i
        ) => [path, pages.body.columns[1].values[i], pages.body.columns[2].values[i]])
        expect(rows).toContainEqual([`${base}/${section.path}`, proSiteSpace?.id ?? "the pro site space", 1])
      }))
  })

suite("reader: memory", MemoryStorage)
suite("reader: embedded PostgreSQL (PGlite)", PgStorage.pipe(Layer.provide(PgliteClient())))
const serverUrl = process.env["OCTAVO_TEST_DATABASE_URL"]
if (serverUrl !== undefined) {
  suite("reader: PostgreSQL server", PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(serverUrl))))
}
