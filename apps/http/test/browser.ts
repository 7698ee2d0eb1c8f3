import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { type Browser, chromium, type Page } from "playwright-core"
import { Effect } from "effect"

/**
 * The Chromium the browser tests drive: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium` (which
 * `.ci/run` installs when it can), else the one `@sparticuz/chromium` ships inside its npm package
 * (Linux x64), so that the tests run on a machine with only Node and npm. Never skipped: without any,
 * the tests fail saying so.
 */
const executable = async (): Promise<string> => {
  const configured = process.env["CHROMIUM_PATH"]
  if (configured !== undefined && configured !== "") return configured
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium"
  const packaged = (await import("@sparticuz/chromium")).default
  return packaged.executablePath()
}

/** Flags for a headless Chromium on a machine without a display or network beyond loopback. */
const ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

export const browser = Effect.acquireRelease(
  Effect.promise(async (): Promise<Browser> => chromium.launch({ executablePath: await executable(), args: ARGS, headless: true })),
  (b) => Effect.promise(() => b.close())
)

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** axe-core's serious and critical violations on the page, as `rule: target` lines. */
export const accessibilityProblems = (page: Page) =>
  Effect.promise(async () => {
    await page.addScriptTag({ content: axeSource })
    const result = await page.evaluate(async () => {
      const axe = (globalThis as unknown as {
        axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: Array<string> }> }> }> }
      }).axe
      return axe.run()
    })
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`))
  })
