import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, PUBLIC_URL, serverOrigin, testServer } from "./harness.js"
import { publishedSite, spaceWithPages, web } from "./readerWeb.js"
import { newUser } from "./scenario.js"

// A published site's MCP endpoint (issue 20), driven by the official MCP SDK's client over streamable HTTP.

const connected = (url: string) =>
  Effect.acquireRelease(
    Effect.tryPromise(async () => {
      const client = new Client({ name: "octavo-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join("")

layer(testServer(MemoryStorage), { excludeTestServices: true, timeout: 120_000 })("reader over MCP", (it) => {
  it.scoped("an MCP client lists the tools, lists pages, searches and reads a page; visibility holds; requests are counted", () =>
    Effect.gen(function*() {
      const origin = yield* serverOrigin
      const admin = yield* newUser("Max Mcp")
      const token = admin.token
      const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body.id as string
      const guide = yield* spaceWithPages(org, token, "Guide", [
        { title: "Welcome", description: "Start here." },
        { title: "Install", markdown: "Intro.\n\n## Zeppelins\n\nInflate the zeppelin.\n" }
      ])
      const site = yield* publishedSite(org, admin, [guide.spaceId], { basename: "docs" })

      const client = yield* Effect.orDie(connected(`${origin}/sites/${org}/docs/~mcp`))
      const tools = yield* Effect.promise(() => client.listTools())
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["list_pages", "read_page", "search_docs"])

      const pages = textOf(yield* Effect.promise(() => client.callTool({ name: "list_pages", arguments: {} })))
      expect(pages).toBe(
        `- Welcome: ${PUBLIC_URL}/sites/${org}/docs/welcome (Start here.)\n- Install: ${PUBLIC_URL}/sites/${org}/docs/install`
      )
      const found = textOf(yield* Effect.promise(() => client.callTool({ name: "search_docs", arguments: { query: "zeppelin" } })))
      expect(found).toContain(`- Install (path: install): ${PUBLIC_URL}/sites/${org}/docs/install`)
      expect(found).toContain(`Zeppelins: ${PUBLIC_URL}/sites/${org}/docs/install#zeppelins`)
      const read = yield* Effect.promise(() => client.callTool({ name: "read_page", arguments: { path: "install" } }))
      expect(textOf(read)).toBe("# Install\n\nIntro.\n\n## Zeppelins\n\nInflate the zeppelin.\n")
      const byUrl = yield* Effect.promise(() =>
        client.callTool({ name: "read_page", arguments: { path: `${PUBLIC_URL}/sites/${org}/docs/welcome.md` } })
      )
      expect(textOf(byUrl)).toBe("# Welcome\n\nStart here.\n\nAbout Welcome.\n")
      const missing = yield* Effect.promise(() => client.callTool({ name: "read_page", arguments: { path: "nope" } }))
      expect([missing.isError, textOf(missing)]).toEqual([true, "There is no page at nope."])
      const refused = yield* Effect.promise(() => client.callTool({ name: "search_docs", arguments: { query: "" } }))
      expect(refused.isError).toBe(true)
      expect((yield* web(`/sites/${org}/docs/~mcp`)).status).toBe(405)

      // A share-link site answers MCP only with an active key, like its pages.
      yield* call("PATCH", site.path, { token, body: { visibility: "share-link" } })
      const shut = yield* Effect.either(connected(`${origin}/sites/${org}/docs/~mcp`))
      expect(shut._tag).toBe("Left")
      expect(String(shut._tag === "Left" ? shut.left.cause : "")).toContain("Page not found")
      const link = (yield* call("POST", `${site.path}/share-links`, { token, body: { name: "Bots" } })).body
      const key = new URL(link.urls.published as string).searchParams.get("share")!
      const shared = yield* Effect.orDie(connected(`${origin}/sites/${org}/docs/~mcp?share=${key}`))
      expect((yield* Effect.promise(() => shared.listTools())).tools).toHaveLength(3)

      const counted = yield* call("POST", `${site.path}/insights/events/aggregate`, {
        token,
        body: {
          range: "last24Hours",
          select: [{ column: "eventsCount" }],
          where: [{ column: "eventType", operator: "in", values: ["mcp_request"] }]
        }
      })
      expect(counted.body.columns[0].values[0]).toBeGreaterThanOrEqual(8)
    }))
})
