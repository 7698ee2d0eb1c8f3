import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { type OpenedSite, Reader } from "@octavo/domain"
import { Effect, Runtime } from "effect"
import { z } from "zod"
import { everyPage, markdownOf, pageHref, type SiteAddress } from "./Pages.js"

/**
 * A published site's MCP endpoint (`…/~mcp`, streamable HTTP, stateless, JSON answers) through the
 * official MCP SDK: tools to list the pages, search them and read one as markdown, under the same
 * visibility as the HTML (the site was opened for this visitor before the request reaches here).
 */

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] })

/** Answers one MCP request (a web Request) for the opened site. */
export const answerMcp = (opened: OpenedSite, address: SiteAddress, absolute: (path: string) => string, request: Request) =>
  Effect.gen(function*() {
    const reader = yield* Reader
    const runtime = yield* Effect.runtime<never>()
    const run = <A>(effect: Effect.Effect<A, never, never>) => Runtime.runPromise(runtime)(effect)
    const provided = <A, E>(effect: Effect.Effect<A, E, Reader>) => Effect.provideService(effect, Reader, reader)

    const server = new McpServer({ name: `${opened.site.title} docs`, version: "1.0.0" })
    server.registerTool("list_pages", {
      title: "List the pages",
      description: `Every page of ${opened.site.title}, with its path and URL.`
    }, () =>
      run(provided(Effect.map(reader.everySpace(opened), (spaces) =>
        text(
          everyPage(spaces).map(({ node, space }) =>
            `- ${node.page.title}: ${absolute(pageHref(address, space, node.path))}${
              node.page.description === undefined ? "" : ` (${node.page.description})`
            }`
          ).join("\n")
        )))))
    server.registerTool("search_docs", {
      title: "Search the docs",
      description: `Full-text search in ${opened.site.title}: the pages found, best first, with the sections that match.`,
      inputSchema: { query: z.string().min(1).max(512).describe("Words to look for") }
    }, ({ query }) =>
      run(provided(
        reader.search(opened, query).pipe(
          Effect.map((results) =>
            text(
              results.length === 0 ? `Nothing was found for "${query}".` : results.map((result) => {
                const url = absolute(pageHref(address, result.space, result.node.path))
                const sections = result.sections.map((s) =>
                  `  - ${s.title === "" ? result.node.page.title : s.title}: ${s.anchor === "" ? url : `${url}#${s.anchor}`}\n    ${
                    s.body.slice(0, 200)
                  }`
                )
                return [
                  `- ${result.node.page.title} (path: ${
                    result.space.address === "" ? "" : `${result.space.address}/`
                  }${result.node.path}): ${url}`,
                  ...sections
                ].join("\n")
              }).join("\n")
            )
          ),
          Effect.catchTag("InvalidInput", (error) => Effect.succeed({ ...text(error.message), isError: true }))
        )
      )))
    server.registerTool("read_page", {
      title: "Read a page",
      description: "A page's markdown, by its path on the site (as list_pages and search_docs give it) or its URL.",
      inputSchema: { path: z.string().max(2048).describe("The page's path after the site's address, or its URL") }
    }, ({ path }) => {
      const base = absolute(address.base)
      const relative = path.startsWith(base) ? path.slice(base.length) : path
      const segments = relative.split(/[?#]/)[0]!.split("/").filter((s) => s !== "").map((s) => s.replace(/\.md$/, ""))
      return run(provided(
        reader.page(opened, segments).pipe(
          Effect.map((page) => text(markdownOf(page.node))),
          Effect.catchTag("NotFound", () => Effect.succeed({ ...text(`There is no page at ${path}.`), isError: true }))
        )
      ))
    })

    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    yield* Effect.promise(() => server.connect(transport))
    return yield* Effect.promise(() => transport.handleRequest(request)).pipe(
      Effect.ensuring(Effect.promise(() => server.close()))
    )
  })
