import { describe, expect, it } from "@effect/vitest"
import type { PageId } from "../src/shared/Ids.js"
import { documentOf, MAX_LEXEME_BYTES } from "../src/search/Indexing.js"
import { plainText, sectionsOf } from "../src/search/Text.js"
import type { ContentPage } from "../src/content/Page.js"
import type { SpaceId } from "../src/shared/Ids.js"

const sections = (markdown: string) => sectionsOf({ id: "p" as PageId, title: "Page", markdown })

describe("plainText", () => {
  it("keeps the words a reader sees", () => {
    const markdown = [
      "> **Note**: see [the guide](https://example.com/guide) and ![a diagram](img.png).",
      "- first <kbd>item</kbd>",
      "2. second",
      "```sh",
      "npm install",
      "```",
      "| Key | Value |",
      "| --- | :---: |",
      "| port | 8080 |"
    ].join("\n")
    expect(plainText(markdown)).toBe("Note: see the guide and a diagram. first item second npm install Key Value port 8080")
    expect(plainText("Hello **world**, see [the guide](x.md)")).toBe("Hello world, see the guide")
  })

  // Each of these took from seconds to minutes when a pattern could backtrack across lines; a
  // test that hangs fails on vitest's timeout.
  it("reads blank-heavy and bracket-heavy text in linear time", () => {
    // Lengths only: a failure should not print a megabyte.
    const size = (text: string) => plainText(text).length
    expect(size("   \n".repeat(50_000))).toBe(0)
    expect(size("\n".repeat(200_000))).toBe(0)
    expect(size("<".repeat(200_000))).toBe(200_000)
    expect(size(`<a${" b".repeat(100_000)}`)).toBe(200_002)
    expect(size("[".repeat(200_000) + "x")).toBe(200_001)
    expect(size(`[a](${"(".repeat(100_000)}`)).toBe(100_004)
    // A delimiter row without a header row is no table: it is text.
    expect(size(`${"| --- ".repeat(50_000)}\n`)).toBe(299_999)
    expect(size(`${"| a ".repeat(5_000)}|\n${"| --- ".repeat(5_000)}|\n`)).toBe(9_999)
    // The parser's constant is larger than a regex's: a slow machine gets two minutes, still far from the minutes a backtracking pattern took.
  }, 120_000)
})

describe("sectionsOf", () => {
  it("reads headings with or without closing hashes", () => {
    expect(sections("# Setup ##\nBody.\n## C#\nSharp.\n### ###\nEmpty.").map((s) => [s.title, s.anchor, s.body])).toEqual([
      ["Setup", "setup", "Body."],
      ["C#", "c", "Sharp."],
      ["", "section", "Empty."]
    ])
  })

  it("reads a heading line of many blanks in linear time", () => {
    expect(sections(`# a${" ".repeat(200_000)}x`).map((s) => s.title)).toEqual([`a x`])
    expect(sections(`# a${" ".repeat(200_000)}`).map((s) => s.title)).toEqual(["a"])
  })
})

describe("documentOf", () => {
  it("indexes at most MAX_LEXEME_BYTES of distinct words, the title's always", () => {
    // 20,000 distinct words of 40 letters: 800,000 bytes of lexemes before the cap.
    const word = (i: number) => `w${i.toString(26).replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)] as string).padStart(39, "k")}`
    const markdown = Array.from({ length: 20_000 }, (_, i) => word(i)).join(" ")
    const page = { id: "p" as PageId, title: "Giant", markdown } as ContentPage
    const document = documentOf("s" as SpaceId, page, "giant")
    const bytes = document.lexemes.reduce((sum, lexeme) => sum + new TextEncoder().encode(lexeme).length, 0)
    expect(bytes).toBeLessThanOrEqual(MAX_LEXEME_BYTES)
    expect(bytes).toBeGreaterThan(MAX_LEXEME_BYTES - 64)
    expect(document.lexemes).toContain("giant")
    expect(document.lexemes).toContain(word(0))
    expect(document.lexemes).not.toContain(word(19_999))
  })
})
