import * as fs from "node:fs"
import * as path from "node:path"
import type { PageObject } from "../../src/content/Wire.js"

/** The files under `dir`, by path relative to it: a fixture repository as it is committed. */
export const readTree = (dir: string, prefix = ""): Map<string, Uint8Array> => {
  const files = new Map<string, Uint8Array>()
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`
    if (entry.isDirectory()) { for (const [p, b] of readTree(path.join(dir, entry.name), relative)) files.set(p, b) }
    else files.set(relative, fs.readFileSync(path.join(dir, entry.name)))
  }
  return files
}

/** A revision's pages in reading order, nested ones after their parent. */
export const flatten = (pages: ReadonlyArray<PageObject>): Array<PageObject> => pages.flatMap((p) => [p, ...flatten(p.pages)])
