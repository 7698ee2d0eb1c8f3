import { describe, expect, it } from "vitest"
import { readPage, writePage } from "../src/index.js"

describe("readPage", () => {
  const gitbook = [
    "---",
    "description: \"Intro: the basics\"",
    "icon: book",
    "cover: .gitbook/assets/cover.png",
    "coverY: -12.5",
    "layout:",
    "  cover:",
    "    visible: false",
    "    size: full",
    "  outline:",
    "    visible: true",
    "  pagination:",
    "    visible: false",
    "hidden: true",
    "noIndex: true",
    "noRobotsIndex: false",
    "unknown: kept out",
    "---",
    "",
    "# Hello *world*",
    "",
    "",
    "  Body **text**",
    "# Second"
  ].join("\n")

  it("reads GitBook's front matter and takes the first heading as the title", () => {
    expect(readPage(gitbook, { takeTitle: true })).toEqual({
      body: "  Body **text**\n# Second",
      title: "Hello world",
      description: "Intro: the basics",
      icon: "book",
      cover: ".gitbook/assets/cover.png",
      coverY: -12.5,
      layout: { cover: false, coverSize: "full", outline: true, pagination: false },
      hidden: true,
      noIndex: true,
      noRobotsIndex: false
    })
  })

  it("leaves the heading in the body without takeTitle, or when it is not the first block", () => {
    expect(readPage(gitbook, { takeTitle: false }).body).toBe("\n# Hello *world*\n\n\n  Body **text**\n# Second")
    expect(readPage("Intro\n\n# Title\n", { takeTitle: true })).toEqual({ body: "Intro\n\n# Title\n" })
    expect(readPage("## Not a title\n", { takeTitle: true })).toEqual({ body: "## Not a title\n" })
    expect(readPage("# Kept\nBody", { takeTitle: false })).toEqual({ body: "# Kept\nBody" })
    expect(readPage("Title\n=====\nBody", { takeTitle: true })).toEqual({ title: "Title", body: "Body" })
  })

  it("keeps a malformed or non-mapping front matter as body text", () => {
    for (const markdown of ["---\ndescription: [unclosed\n---\n# T\n", "---\n- a list\n---\n# T\n", "---\na: &x 1\nb: *y\n---\n"]) {
      expect(readPage(markdown, { takeTitle: true })).toEqual({ body: markdown })
    }
  })

  it("refuses a front matter whose aliases multiply", () => {
    const bomb = [
      "---",
      "a: &a [x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "---",
      "Body"
    ].join("\n")
    expect(readPage(bomb, { takeTitle: false })).toEqual({ body: bomb })
  })

  it("reads an empty front matter, and one that closes far from the start", () => {
    expect(readPage("---\n---\n# T\n", { takeTitle: true })).toEqual({ title: "T", body: "" })
    const long = `---\ndescription: ${"d".repeat(20_000)}\n---\n# T\n\nBody`
    expect(readPage(long, { takeTitle: true })).toEqual({ description: "d".repeat(20_000), title: "T", body: "Body" })
  })

  it("reads the title of a long page without a blank line after it", () => {
    const body = "x ".repeat(50_000)
    expect(readPage(`# T\n${body}`, { takeTitle: true })).toEqual({ title: "T", body })
  })
})

describe("writePage", () => {
  it("writes only the fields given, in GitBook's keys, then the title and the body", () => {
    const page = writePage({ title: "Hello *world*", description: "Intro: the basics", layout: { outline: false }, hidden: true }, "Body\n")
    expect(page).toBe(
      "---\ndescription: \"Intro: the basics\"\nlayout:\n  outline:\n    visible: false\nhidden: true\n---\n\n# Hello \\*world\\*\n\nBody\n"
    )
    expect(readPage(page, { takeTitle: true })).toEqual({
      title: "Hello *world*",
      description: "Intro: the basics",
      layout: { outline: false },
      hidden: true,
      body: "Body\n"
    })
    expect(writePage({}, "Body")).toBe("Body")
  })

  it("reads back every field it writes", () => {
    const fields = {
      title: "T",
      description: "d",
      icon: "book",
      cover: "c.png",
      coverY: 3,
      layout: { cover: true, coverSize: "hero", title: false, description: true, tableOfContents: false, outline: true, pagination: false },
      hidden: false,
      noIndex: true,
      noRobotsIndex: true
    }
    expect(readPage(writePage(fields, "B"), { takeTitle: true })).toEqual({ ...fields, body: "B" })
  })
})
