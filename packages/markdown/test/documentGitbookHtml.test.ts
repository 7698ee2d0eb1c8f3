import { describe, expect, it } from "vitest"
import { type DocumentBlock, fromDocument, toDocument } from "../src/index.js"
import { schemaErrors } from "./schema.js"

// The HTML GitBook writes in markdown (issue 40) as the blocks of its document JSON, and back.

const markdown = [
  "<h2 align=\"center\">Welcome aboard</h2>",
  "<p align=\"right\">Words on the right.</p>",
  "<div data-with-frame=\"true\"><figure><img src=\"/files/f1\" alt=\"A\" width=\"320\"><figcaption><p>Framed.</p></figcaption></figure></div>",
  "<div align=\"left\"><figure><img src=\"/files/f2\" alt=\"B\"></figure></div>",
  "<table data-header-hidden data-full-width=\"true\"><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody>" +
  "<tr><td><strong>a</strong></td><td>See <a href=\"/pages/p1\">one</a>.</td></tr></tbody></table>",
  "<table data-view=\"cards\" data-card-size=\"large\"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type=\"content-ref\"></th>" +
  "<th data-hidden data-card-cover data-type=\"files\"></th></tr></thead><tbody>" +
  "<tr><td><strong>One</strong></td><td>First card.</td><td><a href=\"/pages/p1\">/pages/p1</a></td><td><a href=\"/files/f3\">/files/f3</a></td></tr>" +
  "</tbody></table>",
  "Go <i class=\"fa-solid fa-rocket\"></i> now."
].join("\n\n") + "\n"

const types = (blocks: ReadonlyArray<DocumentBlock>) => blocks.map((block) => block.type)

describe("GitBook's HTML in the document", () => {
  const document = toDocument(markdown)

  it("reads figures, tables, cards, aligned headings and paragraphs and icons as GitBook's blocks, valid by its schema", () => {
    expect(schemaErrors(document)).toEqual([])
    expect(types(document.nodes)).toEqual(["heading-2", "paragraph", "images", "images", "table", "table", "paragraph"])
    const [heading, paragraph, framed, aligned, table, cards, icons] = document.nodes as Array<DocumentBlock>
    expect(heading?.data).toEqual({ align: "center" })
    expect(paragraph?.data).toEqual({ align: "end" })
    expect(framed?.data).toEqual({ withFrame: true })
    expect(framed?.nodes?.[0]).toMatchObject({ type: "image", data: { ref: { kind: "file", file: "f1" }, alt: "A", width: 320 } })
    expect(framed?.nodes?.[0]).toMatchObject({ fragments: [{ fragment: "caption" }] })
    expect(aligned?.data).toEqual({ align: "left" })
    expect(table?.data).toMatchObject({ view: { type: "grid", columns: ["c0", "c1"], hideHeader: true }, fullWidth: true })
    expect(JSON.stringify(table?.fragments)).toContain("\"type\":\"link\",\"data\":{\"ref\":{\"kind\":\"page\",\"page\":\"p1\"}}")
    expect(cards?.data).toMatchObject({
      view: { type: "cards", columns: ["c0", "c1"], cardSize: "large", targetDefinition: "c2", coverDefinition: "c3" },
      records: { r0: { values: { c2: { kind: "page", page: "p1" }, c3: { ref: { kind: "file", file: "f3" } } } } }
    })
    expect(icons?.nodes?.[1]).toEqual({ object: "inline", type: "icon", isVoid: true, data: { icon: "rocket" } })
  })

  it("writes framed and aligned images, cards and icons back as GitBook's HTML, which reads back to the same document", () => {
    const written = fromDocument(document)
    expect(written).toContain(
      "<div data-with-frame=\"true\"><figure><img src=\"/files/f1\" alt=\"A\" width=\"320\"><figcaption><p>Framed.</p></figcaption></figure></div>"
    )
    expect(written).toContain("<table data-view=\"cards\" data-card-size=\"large\">")
    expect(written).toContain("<i class=\"fa-rocket\"></i>")
    const again = toDocument(written)
    const [, , framed, aligned, , cards, icons] = again.nodes
    const [, , framed0, aligned0, , cards0, icons0] = document.nodes
    expect([framed, aligned, cards, icons]).toEqual([framed0, aligned0, cards0, icons0])
  })
})
