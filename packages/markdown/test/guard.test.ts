import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MAX_LINE_NESTING, MAX_PARAGRAPH_MARKERS, MAX_TEXT_LINES, MAX_TEXT_MARKERS, markdownProblem, parse } from "../src/index.js"
import { markdownSoup } from "./generators.js"

describe("markdownProblem", () => {
  it("lets lists and quotes open 64 deep on one line, not 65, whatever their markers", () => {
    for (const marker of ["- ", "* ", "+ ", "1. ", "2) ", "> ", "- > "]) {
      const deepest = marker.repeat(Math.floor(MAX_LINE_NESTING / (marker === "- > " ? 2 : 1)))
      expect(markdownProblem(`${deepest}x`)).toBeUndefined()
      expect(markdownProblem(`${marker.repeat(MAX_LINE_NESTING + 1)}x`)).toBe("must not nest lists or quotes more than 64 deep on one line")
    }
    // Dashes without spaces are text, and a ten-digit number is no list marker.
    expect(markdownProblem("-".repeat(10_000))).toBeUndefined()
    expect(markdownProblem("1234567890. ".repeat(100))).toBeUndefined()
  })

  it("counts emphasis markers and link brackets per paragraph, outside fenced code", () => {
    const stars = (n: number) => "*".repeat(n)
    expect(markdownProblem(stars(MAX_PARAGRAPH_MARKERS))).toBeUndefined()
    expect(markdownProblem(stars(MAX_PARAGRAPH_MARKERS + 1))).toBe(
      "must not hold more than 5000 emphasis markers (* and _) in one paragraph"
    )
    expect(markdownProblem("[".repeat(MAX_PARAGRAPH_MARKERS + 1))).toBe(
      "must not hold more than 5000 link brackets ([ and ]) in one paragraph"
    )
    // Split over paragraphs, list items or headings, the same markers pass; a quote's lines go on with its paragraph.
    const half = `${stars(MAX_PARAGRAPH_MARKERS / 2 + 1)}\n`
    expect(markdownProblem(`${half}\n${half}`)).toBeUndefined()
    expect(markdownProblem(`- ${half}- ${half}`)).toBeUndefined()
    expect(markdownProblem(`# ${half}# ${half}`)).toBeUndefined()
    expect(markdownProblem(`> ${half}> ${half}`)).toBe("must not hold more than 5000 emphasis markers (* and _) in one paragraph")
    expect(markdownProblem(`${half}${half}`)).toBe("must not hold more than 5000 emphasis markers (* and _) in one paragraph")
    // Fenced code is not parsed for emphasis, and its fence closes only with its own kind.
    expect(markdownProblem(`\`\`\`\n${stars(MAX_TEXT_MARKERS + 1)}\n~~~\n${stars(10)}\n\`\`\`\nafter`)).toBeUndefined()
    expect(markdownProblem(`\`\`\`\ncode\n\`\`\`\n${stars(MAX_PARAGRAPH_MARKERS + 1)}`)).not.toBeUndefined()
  })

  it("bounds the nesting of list items indented a little more on each line", () => {
    const staircase = (n: number) => Array.from({ length: n }, (_, i) => `${"  ".repeat(i)}- item`).join("\n")
    expect(markdownProblem(staircase(MAX_LINE_NESTING))).toBeUndefined()
    expect(markdownProblem(staircase(MAX_LINE_NESTING + 1))).toBe("must not nest lists or quotes more than 64 deep")
    // Going back out, or a paragraph at the margin, closes the items above.
    expect(markdownProblem(`${staircase(40)}\npara\n${staircase(40)}`)).toBeUndefined()
    expect(markdownProblem(`${staircase(40)}\n- back\n${staircase(40)}`)).toBeUndefined()
  })

  it("bounds the lines outside fenced code", () => {
    expect(markdownProblem("x\n".repeat(MAX_TEXT_LINES - 1))).toBeUndefined()
    expect(markdownProblem("x\n".repeat(MAX_TEXT_LINES))).toBe("must not have more than 50000 lines outside fenced code")
    expect(markdownProblem(`\`\`\`\n${"code\n".repeat(MAX_TEXT_LINES)}\`\`\`\nx`)).toBeUndefined()
  })

  it("bounds the markers of the whole text", () => {
    const paragraph = `${"_a_ ".repeat(1_000)}\n\n`
    expect(markdownProblem(paragraph.repeat(MAX_TEXT_MARKERS / 2_000))).toBeUndefined()
    expect(markdownProblem(paragraph.repeat(MAX_TEXT_MARKERS / 2_000) + "**")).toBe(
      "must not hold more than 30000 emphasis markers (* and _)"
    )
  })

  it("passes everyday markdown, and every text it passes parses", () => {
    expect(markdownProblem("# Guide\n\n- **Install** the [tool](https://example.com)\n  1. then _run_ it\n\n> Note: done.")).toBeUndefined()
    fc.assert(
      fc.property(markdownSoup, (markdown) => {
        if (markdownProblem(markdown) === undefined) expect(() => parse(markdown)).not.toThrow()
      }),
      { numRuns: 200 }
    )
  })
})
