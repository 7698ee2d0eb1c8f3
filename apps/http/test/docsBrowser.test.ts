import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { browser } from "./browser.js"
import { serverOrigin, testServer } from "./harness.js"

// The API reference at /docs in a real headless Chromium: Scalar's viewer, loaded by the server on the first request
// rather than at start, runs under the page's Content-Security-Policy and shows the API's operations. A screenshot is
// kept in apps/http/test-artifacts/.

const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url))

layer(testServer(MemoryStorage), { excludeTestServices: true, timeout: 120_000 })("API reference in Chromium", (it) => {
  it.scoped("the reference page renders the API's operations with no policy violation", () =>
    Effect.gen(function*() {
      const origin = yield* serverOrigin
      const chromium = yield* browser
      const page = yield* Effect.promise(() => chromium.newPage({ viewport: { width: 1280, height: 900 } }))
      const refused: Array<string> = []
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text())
      })
      const failed: Array<string> = []
      page.on("requestfailed", (request) => failed.push(request.url()))
      const answer = yield* Effect.promise(() => page.goto(`${origin}/docs`, { waitUntil: "load" }))
      expect(answer?.status()).toBe(200)
      expect(answer?.headers()["content-security-policy"]).toContain("default-src 'none'")
      // The viewer draws the document's title and one entry per operation, from the document inlined in the page.
      yield* Effect.promise(() => page.getByText("Octavo API").first().waitFor({ timeout: 60_000 }))
      yield* Effect.promise(() => page.getByText("/v1/orgs/{organizationId}/spaces").first().waitFor({ timeout: 60_000 }))
      mkdirSync(ARTIFACTS, { recursive: true })
      yield* Effect.promise(() => page.screenshot({ path: join(ARTIFACTS, "docs.png") }))
      expect(refused).toEqual([])
      expect(failed).toEqual([])
    }))
})
