import { existsSync } from "node:fs"
import { type Browser, chromium } from "playwright-core"
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
