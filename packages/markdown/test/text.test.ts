import { describe, expect, it } from "vitest"
import { anchorOf, plainText, sections, slugify } from "../src/index.js"

describe("plainText", () => {
  it("keeps the words a reader sees, without blanks where markup was", () => {
    expect(plainText("Hello **world**, see [the guide](x.md)")).toBe("Hello world, see the guide")
    expect(plainText([
      "---",
      "description: not seen",
      "---",
      "> **Note**: see [the guide](https://example.com/guide) and ![a diagram](img.png).",
      "- first <kbd>item</kbd>",
      "2. second",
      "```sh",
      "npm install",
      "```",
      "| Key | Value |",
      "| --- | :---: |",
      "| port | 8080 |",
      "",
      "{% hint style=\"info\" %}",
      "A hint<br>on two lines",
      "{% endhint %}",
      "",
      "<details><summary>More</summary>",
      "",
      "Hidden",
      "",
      "</details>",
      "",
      "[r]: https://example.com/not-seen"
    ].join("\n"))).toBe(
      "Note: see the guide and a diagram. first item second npm install Key Value port 8080 A hint on two lines More Hidden"
    )
  })
})

describe("sections", () => {
  it("splits a page at its headings, with GitHub's anchors, unique in the page", () => {
    expect(
      sections(
        "Intro *text*.\n\n# Setup ##\nBody.\n\n## C#\nSharp.\n\n### ###\nEmpty.\n\n## Setup\nAgain.\n\n```\n# not a heading\n```\n\n{% hint style=\"info\" %}\n## In a hint\nHinted.\n{% endhint %}"
      )
    ).toEqual([
      { heading: undefined, depth: 0, anchor: "", text: "Intro text." },
      { heading: "Setup", depth: 1, anchor: "setup", text: "Body." },
      { heading: "C#", depth: 2, anchor: "c", text: "Sharp." },
      { heading: "", depth: 3, anchor: "section", text: "Empty." },
      { heading: "Setup", depth: 2, anchor: "setup-1", text: "Again. # not a heading" },
      { heading: "In a hint", depth: 2, anchor: "in-a-hint", text: "Hinted." }
    ])
  })

  it("leaves out empty text before the first heading", () => {
    expect(sections("\n\n# A\n")).toEqual([{ heading: "A", depth: 1, anchor: "a", text: "" }])
    expect(sections("")).toEqual([])
  })

  it("makes anchors as GitHub does", () => {
    expect(anchorOf("Ünïcode & Spaces: Getting Started!")).toBe("ünïcode--spaces-getting-started")
    expect(anchorOf("API v2.0 (beta)")).toBe("api-v20-beta")
  })
})

describe("slugify", () => {
  it("makes page slugs of lower-case ascii words", () => {
    expect(slugify("Ünïcode & Spaces: Getting Started!")).toBe("unicode-spaces-getting-started")
    expect(slugify("!!!")).toBe("page")
    expect(slugify("a".repeat(99) + " b")).toBe("a".repeat(99))
  })
})
