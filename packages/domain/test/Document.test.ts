import { describe, expect, it } from "@effect/vitest"
import { markdownToDocument, readMarkdown, slugify } from "../src/index.js"

describe("markdown", () => {
  it("turns markdown into a document tree of blocks and inlines", () => {
    const doc = markdownToDocument([
      "# Title",
      "Some **bold** and a [link](https://example.com) and `code`.",
      "",
      "- one",
      "- two",
      "",
      "```ts",
      "const x = 1",
      "```",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "",
      "> quoted",
      "",
      "---"
    ].join("\n"))
    expect(doc.nodes.map((n) => n.type)).toEqual(["heading-1", "paragraph", "list-unordered", "code", "table", "blockquote", "divider"])
    const paragraph = doc.nodes[1]!
    expect(paragraph.nodes).toContainEqual({ object: "text", leaves: [{ text: "bold", marks: [{ type: "bold" }] }] })
    expect(paragraph.nodes).toContainEqual({
      object: "inline",
      type: "link",
      data: { ref: { kind: "url", url: "https://example.com" } },
      nodes: [{ object: "text", leaves: [{ text: "link", marks: [] }] }]
    })
    expect(doc.nodes[3]).toMatchObject({ type: "code", data: { syntax: "ts" } })
    expect(doc.nodes[4]!.nodes).toHaveLength(2)
  })

  it("reads front matter and the first heading; slugs from titles", () => {
    const read = readMarkdown(
      "---\ndescription: \"Intro\"\nicon: book\nhidden: true\nlayout:\n  cover:\n    visible: false\n  outline:\n    visible: true\n---\n# Hello *world*\n\nBody",
      false
    )
    expect(read).toEqual({
      body: "Body",
      title: "Hello *world*",
      description: "Intro",
      icon: "book",
      hidden: true,
      layout: { cover: false, outline: true }
    })
    expect(readMarkdown("# Kept\nBody", true).body).toBe("# Kept\nBody")
    expect(slugify("Ünïcode & Spaces: Getting Started!")).toBe("unicode-spaces-getting-started")
    expect(slugify("!!!")).toBe("page")
  })
})
