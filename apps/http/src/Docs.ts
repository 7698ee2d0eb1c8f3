import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import { Effect } from "effect"
import { html, trusted } from "./reader/Html.js"

/**
 * Scalar's viewer, as @effect/platform bundles it: 3.4 MB of script that HttpApiScalar's layer loads at start and
 * keeps, with the page around it, for the life of the process (about 30 MiB resident). It is read here on the first
 * request for the page instead. The package exports it only through that layer, so its module is required by file.
 */
const scalarScript = (): string => {
  const require = createRequire(import.meta.url)
  const layerModule = require.resolve("@effect/platform/HttpApiScalar")
  return (require(join(dirname(layerModule), "internal", "httpApiScalar.js")) as { javascript: string }).javascript
}

/** JSON inside a script element: `<` could close it, and U+2028/U+2029 end a line in older engines. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")

const page = (spec: OpenApi.OpenAPISpec, script: string): string =>
  html`<!doctype html>
<html>
  <head>
    <meta charset="utf-8">
    <title>${spec.info.title}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
  </head>
  <body>
    <script id="api-reference" type="application/json">${trusted(scriptJson(spec))}</script>
    <script>document.getElementById("api-reference").dataset.configuration = ${
    trusted(scriptJson(JSON.stringify({ _integration: "html", withDefaultFonts: false })))
  }</script>
    <script>${trusted(script)}</script>
  </body>
</html>`.text

/**
 * The API reference at `path`: the served OpenAPI document in Scalar's viewer, which runs from the page itself (fonts
 * from Scalar's servers would be refused by the page's policy, so it uses the system's).
 */
export const docsRoute = (path: HttpRouter.PathInput) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const { api } = yield* HttpApi.Api
      const built = yield* Effect.cached(Effect.sync(() => page(OpenApi.fromApi(api), scalarScript())))
      yield* router.get(path, Effect.map(built, (body) => HttpServerResponse.html(body)))
    })
  )
