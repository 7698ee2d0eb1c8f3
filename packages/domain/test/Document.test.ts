import { describe, expect, it } from "@effect/vitest"
import { documentToMarkdown, markdownToDocument, readMarkdown, slugify } from "../src/index.js"

describe("markdown", () => {
  it("turns markdown into GitBook's document of blocks, inlines and leaves, and back", () => {
    const markdown = [
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
    ].join("\n")
    const doc = markdownToDocument(markdown)
    expect(doc.nodes.map((n) => n.type)).toEqual(["heading-1", "paragraph", "list-unordered", "code", "table", "blockquote", "divider"])
    expect(doc.nodes[1]?.nodes).toEqual([
      {
        object: "text",
        leaves: [
          { object: "leaf", text: "Some ", marks: [] },
          { object: "leaf", text: "bold", marks: [{ object: "mark", type: "bold" }] },
          { object: "leaf", text: " and a ", marks: [] }
        ]
      },
      {
        object: "inline",
        type: "link",
        data: { ref: { kind: "url", url: "https://example.com" } },
        nodes: [{ object: "text", leaves: [{ object: "leaf", text: "link", marks: [] }] }]
      },
      {
        object: "text",
        leaves: [
          { object: "leaf", text: " and ", marks: [] },
          { object: "leaf", text: "code", marks: [{ object: "mark", type: "code" }] },
          { object: "leaf", text: ".", marks: [] }
        ]
      }
    ])
    expect(doc.nodes[3]).toMatchObject({ type: "code", data: { syntax: "ts" } })
    expect(doc.nodes[4]?.data?.["records"]).toEqual({ r0: { orderIndex: "0", values: { c0: "r0-c0", c1: "r0-c1" } } })
    expect(documentToMarkdown(doc)).toBe(
      "# Title\n\nSome **bold** and a [link](https://example.com) and `code`.\n\n* one\n* two\n\n```ts\nconst x = 1\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n> quoted\n\n***\n"
    )
  })

  it("reads front matter and the first heading; slugs from titles", () => {
    const read = readMarkdown(
      "---\ndescription: \"Intro\"\nicon: book\nhidden: true\nnoIndex: true\nlayout:\n  cover:\n    visible: false\n  outline:\n    visible: true\n---\n# Hello *world*\n\nBody",
      false
    )
    expect(read).toEqual({
      body: "Body",
      title: "Hello world",
      description: "Intro",
      icon: "book",
      hidden: true,
      noIndex: true,
      layout: { cover: false, outline: true }
    })
    expect(readMarkdown("# Kept\nBody", true).body).toBe("# Kept\nBody")
    expect(slugify("Ünïcode & Spaces: Getting Started!")).toBe("unicode-spaces-getting-started")
    expect(slugify("!!!")).toBe("page")
  })
})
