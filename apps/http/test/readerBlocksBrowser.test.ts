import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { deflateSync } from "node:zlib"
import type { Locator } from "playwright-core"
import { accessibilityProblems, browser } from "./browser.js"
import { checkAnswer } from "./conformance.js"
import { call, serverOrigin, testServer } from "./harness.js"
import { publishedSite } from "./readerWeb.js"
import { newUser } from "./scenario.js"

// The HTML GitBook's editor writes inside markdown (issue 40), published and opened in headless
// Chromium: framed figures, tables, cards, icons, button links and aligned headings keep their
// structure and all their text; so do steppers, columns and math (the reader's own CSP in force for
// those); screenshots in both themes go to test-artifacts/.

const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url))
const FIXTURE = readFileSync(new URL("../../../packages/markdown/test/fixtures/gitbook-html.md", import.meta.url), "utf8")
const LAYOUT = readFileSync(new URL("../../../packages/markdown/test/fixtures/gitbook-layout.md", import.meta.url), "utf8")

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data])
  const out = Buffer.alloc(body.length + 8)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), body.length + 4)
  return out
}

/** A PNG of `width` × `height`: a sky of `top` fading to `bottom`, with a sun; enough to see that a picture loaded. */
const png = (width: number, height: number, top: readonly [number, number, number], bottom: readonly [number, number, number]) => {
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const at = y * (width * 3 + 1)
    for (let x = 0; x < width; x++) {
      const sun = (x - width * 0.7) ** 2 + (y - height * 0.35) ** 2 < (height * 0.15) ** 2
      const mix = (i: 0 | 1 | 2) => Math.round(top[i] + ((bottom[i] - top[i]) * y) / height)
      rows.set(sun ? [250, 210, 90] : [mix(0), mix(1), mix(2)], at + 1 + x * 3)
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0))
  ]).toString("base64")
}

const BLOCK_TAGS = /<\/?(?:p|div|h[1-6]|table|thead|tbody|tr|td|th|figure|figcaption|colgroup|col)\b[^>]*>/g

/** The sentences of the fixture's text (three words or more, ended by a full stop): what a reader must find on the page. */
const sentencesOf = (markdown: string): Array<string> =>
  markdown
    .replace(/<script>[\s\S]*?<\/script>/g, "\n")
    .replace(BLOCK_TAGS, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/\*\*|`/g, "")
    .split("\n")
    .flatMap((line) => line.replace(/^#+ /, "").replace(/\s+/g, " ").trim().split(/(?<=[.!?]) /))
    .filter((s) => /[.!?]$/.test(s) && s.split(" ").length >= 3)

layer(testServer(MemoryStorage), { excludeTestServices: true, timeout: 180_000 })("GitBook's HTML in the reader, in Chromium", (it) => {
  it.scoped("shows figures, tables, cards, icons, buttons and aligned headings with all their text", () =>
    Effect.gen(function*() {
      const origin = yield* serverOrigin
      const admin = yield* newUser("Hana Html")
      const token = admin.token
      const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Acme" } })).body.id as string
      const spaceId = (yield* call("POST", `/v1/orgs/${org}/spaces`, { token, body: { title: "Guide" } })).body.id as string
      const written = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token,
        body: {
          changes: [
            {
              operation: "insert_files",
              files: [
                { name: "harbour.png", contentType: "image/png", base64: png(640, 360, [70, 120, 190], [200, 225, 245]) },
                { name: "lighthouse.png", contentType: "image/png", base64: png(480, 320, [40, 60, 110], [240, 150, 90]) },
                { name: "badge.png", contentType: "image/png", base64: png(96, 32, [30, 140, 80], [30, 140, 80]) }
              ]
            },
            { operation: "insert_page", title: "Blocks", document: { markdown: FIXTURE } },
            { operation: "insert_page", title: "Install", document: { markdown: "Run the installer.\n" } }
          ]
        }
      })
      expect(written.status).toBe(200)
      yield* publishedSite(org, admin, [spaceId], { basename: "docs" })
      const base = `${origin}/sites/${org}/docs`

      const chromium = yield* browser
      const context = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })),
        (c) => Effect.promise(() => c.close())
      )
      const page = yield* Effect.promise(() => context.newPage())
      page.setDefaultTimeout(10_000)
      const run = <A>(f: () => Promise<A>) => Effect.promise(f)
      // Evaluated in the page, where the DOM's globals are.
      type Styles = { readonly getComputedStyle: (element: unknown) => { getPropertyValue: (name: string) => string } }
      const style = (locator: Locator, property: string) =>
        run(() =>
          locator.evaluate((element, name) => (globalThis as unknown as Styles).getComputedStyle(element).getPropertyValue(name), property)
        )
      const failed: Array<string> = []
      page.on("response", (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
      })
      expect((yield* run(() => page.goto(`${base}/`)))?.status()).toBe(200)
      const article = page.locator("main article")
      yield* run(() =>
        page.evaluate("Promise.all([...document.images].map((i) => { i.loading = 'eager'; return i.decode().catch(() => {}) }))")
      )

      // Figures: the framed one and the plain ones, each with its image loaded and its caption.
      const figures = yield* run(() =>
        article.locator("figure").evaluateAll((nodes) =>
          nodes.map((figure) => {
            const img = figure.querySelector("img") as unknown as { complete: boolean; naturalWidth: number; alt: string } | null
            return {
              framed: figure.parentElement?.getAttribute("data-with-frame") === "true",
              loaded: img !== null && img.complete && img.naturalWidth > 0,
              alt: img?.alt,
              caption: figure.querySelector("figcaption")?.textContent
            }
          })
        )
      )
      expect(figures).toEqual([
        { framed: true, loaded: true, alt: "A harbour at dawn", caption: "The harbour was photographed at dawn." },
        { framed: false, loaded: true, alt: "A lighthouse", caption: "A lighthouse stands on the cliff." },
        { framed: false, loaded: true, alt: "The harbour again", caption: "The same picture is centred here." }
      ])
      expect(yield* style(article.locator("[data-with-frame] > figure"), "padding-top")).toBe("20px")
      expect(yield* style(article.locator("div[align=center] > figure"), "text-align")).toBe("center")

      // The tables, cell by cell.
      const tables = yield* run(() =>
        article.locator("table").evaluateAll((nodes) =>
          nodes.map((table) => [...table.querySelectorAll("tr")].map((tr) => [...tr.children].map((cell) => cell.textContent?.trim())))
        )
      )
      expect(tables).toEqual([
        [
          ["Setting", "What it does", "Example"],
          ["timeout", "It stops a request that runs too long.", "30 seconds"],
          ["retries", "It tries again after a failure. Read the install guide for the details.", ""],
          ["mode", "It chooses between fast and safe runs.", "fast"]
        ],
        [["", ""], ["Left", "This is the first row of a table without a header."]]
      ])
      expect(yield* run(() => article.locator("table td strong").allTextContents())).toEqual(["retries", "mode"])
      expect(yield* run(() => article.locator("table td img").evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)))
        .toBe(96)
      expect(yield* run(() => article.locator("table[data-header-hidden] thead").isVisible())).toBe(false)
      expect(yield* run(() => article.locator("table col").first().getAttribute("width"))).toBe("120")

      // Cards: a grid of three, each a link to its target, two with a loaded cover.
      const cards = yield* run(() =>
        article.locator(".cards > .card").evaluateAll((nodes) =>
          nodes.map((card) => {
            const cover = card.querySelector("img.card-cover") as unknown as { complete: boolean; naturalWidth: number } | null
            return {
              href: card.getAttribute("href"),
              text: [...card.querySelectorAll(".card-text")].map((t) => t.textContent),
              cover: cover === null ? undefined : cover.complete && cover.naturalWidth > 0
            }
          })
        )
      )
      expect(cards).toEqual([
        { href: "/sites/" + org + "/docs/install", text: ["Install", "Set the tool up on your own machine."], cover: true },
        { href: "https://example.com/lights", text: ["Lighthouses", "Read about the lights along the coast."], cover: true },
        { href: "/sites/" + org + "/docs/install", text: ["Plain card", "A card can also go without a picture."], cover: undefined }
      ])
      expect((yield* style(article.locator(".cards"), "grid-template-columns")).split(" ").length).toBeGreaterThan(1)

      // Icons as SVG, drawn at the text's size; the unknown one leaves nothing.
      const icons = yield* run(() =>
        article.locator("svg.icon").evaluateAll((nodes) =>
          nodes.map((svg) => ({ paths: svg.querySelectorAll("path").length, width: Math.round(svg.getBoundingClientRect().width) }))
        )
      )
      expect(icons.length).toBe(4)
      for (const icon of icons) {
        expect(icon.paths).toBe(1)
        expect(icon.width).toBeGreaterThan(10)
        expect(icon.width).toBeLessThan(24)
      }
      expect(yield* run(() => article.locator("i").count())).toBe(0)

      // Buttons: links styled as buttons, their labels kept.
      const buttons = yield* run(() =>
        article.locator("a.button").evaluateAll((nodes) =>
          nodes.map((a) => ({
            label: a.textContent,
            href: a.getAttribute("href"),
            primary: a.classList.contains("primary")
          }))
        )
      )
      expect(buttons).toEqual([
        { label: "Get started", href: `/sites/${org}/docs/install`, primary: true },
        { label: "Read the story", href: "https://example.com/octavo", primary: false }
      ])
      expect(yield* style(article.locator("a.button.primary"), "display")).toBe("inline-block")
      expect(yield* style(article.locator("a.button.primary"), "border-top-width")).toBe("1px")

      // Aligned headings and paragraphs, the headings with anchors and in the outline.
      const centredHeading = article.locator("h3#a-centred-welcome")
      expect(yield* style(centredHeading, "text-align")).toBe("center")
      expect(yield* style(article.locator("p[align=center]").first(), "text-align")).toBe("center")
      const outline = yield* run(() =>
        page.getByRole("complementary", { name: "On this page", exact: true }).getByRole("link").allTextContents()
      )
      expect(outline).toEqual(["A centred welcome", "Pictures", "Settings table", "Cards", "Icons in a sentence", "Other HTML"])

      // Nothing the HTML held runs or is shown as markup; every sentence of the source is on the page.
      expect(yield* run(() => article.locator("script, style, [onclick], [style]").count())).toBe(0)
      expect(yield* run(() => article.locator("a[href^='javascript']").count())).toBe(0)
      const shown = (yield* run(() => article.innerText())).replace(/\s+/g, " ")
      expect(shown).not.toContain("<")
      const sentences = sentencesOf(FIXTURE)
      expect(sentences.length).toBe(19)
      expect(sentences.filter((s) => !shown.includes(s))).toEqual([])
      expect(failed).toEqual([])

      mkdirSync(ARTIFACTS, { recursive: true })
      for (const scheme of ["light", "dark"] as const) {
        yield* run(() => page.emulateMedia({ colorScheme: scheme }))
        yield* run(() => page.screenshot({ path: join(ARTIFACTS, `reader-blocks-${scheme}.png`), fullPage: true }))
        expect(yield* accessibilityProblems(page)).toEqual([])
      }
    }), 180_000)
  it.scoped("shows a stepper's numbered steps, columns side by side and math laid out on the server", () =>
    Effect.gen(function*() {
      const origin = yield* serverOrigin
      const admin = yield* newUser("Lena Layout")
      const token = admin.token
      const org = (yield* call("POST", "/v1/orgs", { token, body: { title: "Layouts" } })).body.id as string
      const spaceId = (yield* call("POST", `/v1/orgs/${org}/spaces`, { token, body: { title: "Guide" } })).body.id as string
      const written = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token,
        body: { changes: [{ operation: "insert_page", title: "Layout", document: { markdown: LAYOUT } }] }
      })
      expect(written.status).toBe(200)
      // The same blocks in GitBook's document JSON, as GitBook's schema has them.
      const pages = (yield* call("GET", `/v1/spaces/${spaceId}/content/pages`, { token })).body.pages as Array<{ id: string }>
      const asDocumentPath = `/v1/spaces/${spaceId}/content/page/${pages[0]?.id}?format=document`
      const asDocument = yield* call("GET", asDocumentPath, { token })
      expect(asDocument.status).toBe(200)
      expect(checkAnswer("GET", asDocumentPath.split("?")[0] as string, 200, asDocument.body)).toEqual([])
      const nodes = asDocument.body.document.nodes as Array<{ type: string; nodes?: Array<{ type: string; data?: unknown }> }>
      expect(nodes.find((node) => node.type === "stepper")?.nodes?.map((step) => step.type)).toEqual([
        "stepper-step",
        "stepper-step",
        "stepper-step"
      ])
      expect(nodes.find((node) => node.type === "columns")?.nodes?.map((column) => column.data)).toEqual([
        { width: { value: 40, unit: "%" } },
        { width: { value: 60, unit: "%" } }
      ])
      yield* publishedSite(org, admin, [spaceId], { basename: "docs" })

      const chromium = yield* browser
      const context = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.newContext({ viewport: { width: 1280, height: 900 } })),
        (c) => Effect.promise(() => c.close())
      )
      const page = yield* Effect.promise(() => context.newPage())
      page.setDefaultTimeout(10_000)
      const run = <A>(f: () => Promise<A>) => Effect.promise(f)
      const refused: Array<string> = []
      page.on("console", (message) => {
        if (message.type() === "error") refused.push(message.text())
      })
      page.on("response", (response) => {
        if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`)
      })
      expect((yield* run(() => page.goto(`${origin}/sites/${org}/docs/`)))?.status()).toBe(200)
      const article = page.locator("main article")
      type Box = { readonly x: number; readonly y: number; readonly width: number; readonly height: number }
      const box = (locator: Locator) => run(async () => (await locator.boundingBox()) as Box)

      // The stepper: three numbered steps, each titled by its heading, the numbers drawn by the style sheet.
      const steps = yield* run(() =>
        article.locator("ol.stepper > li.step").evaluateAll((nodes) =>
          nodes.map((step) => ({
            title: step.querySelector("h4")?.firstChild?.textContent,
            number: (globalThis as unknown as {
              getComputedStyle: (e: unknown, pseudo: string) => { content: string }
            }).getComputedStyle(step, "::before").content
          }))
        )
      )
      expect(steps).toEqual([
        { title: "Create the space", number: "counter(step)" },
        { title: "Write the first page", number: "counter(step)" },
        { title: "Publish the site", number: "counter(step)" }
      ])
      const [first, second] = [yield* box(article.locator("li.step").nth(0)), yield* box(article.locator("li.step").nth(1))]
      expect(second.y).toBeGreaterThanOrEqual(first.y + first.height - 1)

      // Columns: side by side at 40% and 60% of the row, stacked on a narrow screen.
      const left = article.locator(".columns > .column").nth(0)
      const right = article.locator(".columns > .column").nth(1)
      const row = yield* box(article.locator(".columns"))
      const [l, r] = [yield* box(left), yield* box(right)]
      expect(Math.abs(l.y - r.y)).toBeLessThan(2)
      expect(r.x).toBeGreaterThan(l.x + l.width)
      expect(l.width / row.width).toBeGreaterThan(0.3)
      expect(l.width / row.width).toBeLessThan(0.42)
      expect(r.width).toBeGreaterThan(l.width)
      expect(yield* run(() => right.locator("pre").innerText())).toContain("octavo publish --site docs")

      // Math: MathML from the server, inline and as a display block, laid out by the browser.
      const inline = yield* run(() =>
        article.locator("p span.math math").evaluateAll((nodes) => nodes.map((m) => m.querySelector("annotation")?.textContent))
      )
      expect(inline).toEqual(["r", "\\pi r^2"])
      const display = article.locator("div.math math[display=block]")
      expect(yield* run(() => display.locator("mfrac").count())).toBe(1)
      expect(yield* run(() => display.locator("msubsup, munderover").count())).toBe(1)
      const formula = yield* box(display)
      expect(formula.height).toBeGreaterThan(20)
      expect(yield* run(() => article.innerText())).not.toContain("{%")
      expect(refused).toEqual([])

      mkdirSync(ARTIFACTS, { recursive: true })
      for (const scheme of ["light", "dark"] as const) {
        yield* run(() => page.emulateMedia({ colorScheme: scheme }))
        yield* run(() => page.screenshot({ path: join(ARTIFACTS, `reader-layout-${scheme}.png`), fullPage: true }))
      }
      // axe is injected as an inline script, which the reader's policy refuses: it runs in a page that bypasses it.
      const checking = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })),
        (c) => Effect.promise(() => c.close())
      )
      const checked = yield* run(() => checking.newPage())
      yield* run(() => checked.goto(`${origin}/sites/${org}/docs/`))
      for (const scheme of ["light", "dark"] as const) {
        yield* run(() => checked.emulateMedia({ colorScheme: scheme }))
        expect(yield* accessibilityProblems(checked)).toEqual([])
      }

      yield* run(() => page.setViewportSize({ width: 420, height: 900 }))
      const [narrowLeft, narrowRight] = [yield* box(left), yield* box(right)]
      expect(narrowRight.y).toBeGreaterThanOrEqual(narrowLeft.y + narrowLeft.height - 1)
      expect(Math.abs(narrowLeft.width - narrowRight.width)).toBeLessThan(2)
      yield* run(() => page.screenshot({ path: join(ARTIFACTS, "reader-layout-narrow.png"), fullPage: true }))
    }), 180_000)
})
