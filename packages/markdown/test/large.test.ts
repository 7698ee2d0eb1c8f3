import { describe, expect, it } from "vitest"
import type { JSONDocument } from "../src/index.js"
import { fromDocument, linksOf, parse, plainText, readPage, rewriteLinks, sections, toDocument } from "../src/index.js"

// A page of about a million characters, of everything pages hold. Only results are asserted: the
// time it takes is the suite's timeout's business (micromark is linear; the cost is in its constant).
const unit = (n: number) =>
  [
    `## Section ${n}`,
    "",
    `Some *text* with a [link](page-${n}.md) and \`code\` and **bold**, ~~gone~~ and $$x_${n}$$.`,
    "",
    "* item one",
    `* item two with <kbd>html</kbd> and ![an image](/files/img-${n})`,
    "",
    "| a | b |",
    "| --- | --- |",
    `| ${n} | [cell](cell-${n}.md) |`,
    "",
    "{% hint style=\"info\" %}",
    `A hint about ${n}`,
    "{% endhint %}",
    "",
    "```js",
    `const x = ${n} // [not a link](code.md)`,
    "```",
    "",
    ""
  ].join("\n")

const count = 3_400
const page = `---\ndescription: big\n---\n\n# Big\n\n${Array.from({ length: count }, (_, n) => unit(n)).join("")}`

// One call a test, each starting once vitest's own messages are answered: a worker that holds its
// thread past a minute (a slow machine) while one of them waits fails on vitest's RPC timeout.
const idle = () => new Promise<void>((resolve) => setTimeout(resolve, 300))

describe("a page of a million characters", () => {
  const slow = 300_000

  it("is parsed whole", async () => {
    await idle()
    expect(page.length).toBeGreaterThan(1_000_000)
    const tree = parse(page)
    expect(tree.children.filter((node) => node.type === "hint")).toHaveLength(count)
    expect(tree.children.filter((node) => node.type === "table")).toHaveLength(count)
  }, slow)

  it("gives its title and front matter", async () => {
    await idle()
    expect(readPage(page, { takeTitle: true })).toMatchObject({ title: "Big", description: "big" })
  }, slow)

  it("gives its sections", async () => {
    await idle()
    const found = sections(page)
    expect(found).toHaveLength(count + 1)
    expect(found[count]).toEqual({
      heading: `Section ${count - 1}`,
      depth: 2,
      anchor: `section-${count - 1}`,
      text: `Some text with a link and code and bold, gone and x_${count - 1}. item one item two with html and an image a b ${
        count - 1
      } cell A hint about ${count - 1} const x = ${count - 1} // [not a link](code.md)`
    })
  }, slow)

  it("gives its text", async () => {
    await idle()
    const text = plainText(page)
    expect(text.startsWith("Big Section 0 Some text with a link and code and bold, gone and x_0. item one")).toBe(true)
    expect(text.endsWith(`A hint about ${count - 1} const x = ${count - 1} // [not a link](code.md)`)).toBe(true)
  }, slow)

  it("gives its links", async () => {
    await idle()
    const links = linksOf(page)
    expect(links).toHaveLength(count * 3)
    expect(links.slice(0, 3).map((link) => link.url)).toEqual(["page-0.md", "/files/img-0", "cell-0.md"])
  }, slow)

  it("has its links rewritten", async () => {
    await idle()
    const rewritten = rewriteLinks(page, (link) => (link.kind === "link" ? `/pages/${link.url.replace(/\.md$/, "")}` : undefined))
    expect(rewritten.length).toBe(page.length + count * 2 * ("/pages/".length - ".md".length))
  }, slow)

  let doc: JSONDocument | undefined
  let markdown = ""

  it("becomes a document", async () => {
    await idle()
    doc = toDocument(page)
    expect(doc.nodes.filter((node) => node.type === "table")).toHaveLength(count)
  }, slow)

  it("is written back from its document", async () => {
    await idle()
    markdown = fromDocument(doc as JSONDocument)
    expect(markdown.length).toBeGreaterThan(1_000_000)
  }, slow)

  it("reads back as the same document", async () => {
    await idle()
    expect(toDocument(markdown)).toEqual(doc)
  }, slow)
})
