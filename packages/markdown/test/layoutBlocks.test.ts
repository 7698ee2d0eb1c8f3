// Steppers, columns and math: read as GitBook's blocks, rendered as the reader shows them, written
// back byte for byte, and as GitBook's `stepper` and `columns` nodes in the document JSON.
import type { Element, Root } from "hast"
import { fromHtml } from "hast-util-from-html"
import { toText } from "hast-util-to-text"
import { describe, expect, it } from "vitest"
import { fromDocument, linksOf, parse, renderHtml, rewriteLinks, stringify, toDocument } from "../src/index.js"
import { schemaErrors } from "./schema.js"

const stepper = `# Getting started

{% stepper %}
{% step %}
## Create a project

Pick a name for the project.
{% endstep %}

{% step %}
## Invite the team

Send each teammate an invitation.

* Editors may change pages.
* Readers may only read them.
{% endstep %}

{% step %}
## Publish

Open the site's settings and turn publishing on.
{% endstep %}
{% endstepper %}
`

const columns = `{% columns %}
{% column width="33.3%" %}
### Plans

The free plan holds three spaces.
{% endcolumn %}

{% column %}
\`\`\`bash
octavo login
\`\`\`
{% endcolumn %}
{% endcolumns %}
`

const math = `The area is $$\\pi r^2$$ for a circle.

$$
\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}
$$
`

const classes = (
  node: Element
): Array<string> => (Array.isArray(node.properties["className"]) ? node.properties["className"].map(String) : [])

/** The children of `parent` that are `tag` elements with `className` (when given). */
const kids = (parent: Element | Root | undefined, tag: string, className?: string): Array<Element> =>
  (parent?.children ?? []).filter((child): child is Element =>
    child.type === "element" && child.tagName === tag && (className === undefined || classes(child).includes(className))
  )

/** The first `tag` element under `parent`. */
const find = (parent: Element | Root | undefined, tag: string): Element | undefined => {
  for (const child of parent?.children ?? []) {
    if (child.type !== "element") continue
    if (child.tagName === tag) return child
    const found = find(child, tag)
    if (found !== undefined) return found
  }
  return undefined
}

const words = (node: Element | undefined) => node === undefined ? undefined : toText(node).replace(/#$/, "")

const render = (markdown: string) => fromHtml(renderHtml(markdown, { link: (url) => url, asset: (url) => url }).html, { fragment: true })

describe("steppers", () => {
  it("reads a stepper as steps holding markdown", () => {
    const tree = parse(stepper)
    expect(tree.children.map((child) => child.type)).toEqual(["heading", "stepper"])
    const node = tree.children[1]
    if (node?.type !== "stepper") throw new Error("no stepper")
    expect(node.children.map((step) => step.children.map((child) => child.type))).toEqual([
      ["heading", "paragraph"],
      ["heading", "paragraph", "list"],
      ["heading", "paragraph"]
    ])
  })

  it("renders a numbered list of steps, each titled by its first heading", () => {
    const steps = kids(kids(render(stepper), "ol", "stepper")[0], "li", "step")
    expect(steps.map((step) => words(kids(step, "h2")[0]))).toEqual(["Create a project", "Invite the team", "Publish"])
    expect(kids(find(steps[1], "ul"), "li").map((item) => words(item))).toEqual([
      "Editors may change pages.",
      "Readers may only read them."
    ])
  })

  it("writes a stepper back as it was written", () => {
    expect(stringify(parse(stepper))).toBe(stepper)
  })

  it("is a stepper of stepper-steps in GitBook's document, which reads back the same", () => {
    const document = toDocument(stepper)
    expect(schemaErrors(document)).toEqual([])
    const node = document.nodes?.[1]
    expect(node?.type).toBe("stepper")
    expect(node?.object === "block" ? node.nodes?.map((step) => step.object === "text" ? "text" : step.type) : []).toEqual([
      "stepper-step",
      "stepper-step",
      "stepper-step"
    ])
    expect(fromDocument(document)).toBe(stepper)
  })

  it("keeps a stepper holding something else than steps as its tags around its content, dropping nothing", () => {
    const markdown = "{% stepper %}\nloose text\n{% endstepper %}\n"
    expect(parse(markdown).children.map((child) => child.type)).toEqual(["html", "paragraph", "html"])
    expect(stringify(parse(markdown))).toBe("{% stepper %}\n\nloose text\n\n{% endstepper %}\n")
  })
})

describe("columns", () => {
  it("reads columns with their widths", () => {
    const node = parse(columns).children[0]
    if (node?.type !== "columns") throw new Error("no columns")
    expect(node.children.map((column) => [column.width, column.children.map((child) => child.type)])).toEqual([
      ["33.3%", ["heading", "paragraph"]],
      [undefined, ["code"]]
    ])
  })

  it("renders the columns side by side, a width as a class of the style sheet", () => {
    const found = kids(kids(render(columns), "div", "columns")[0], "div", "column")
    expect(found.map(classes)).toEqual([["column", "column-w35"], ["column"]])
    expect(words(find(found[1], "pre"))).toBe("octavo login\n")
  })

  it("writes columns back as they were written", () => {
    expect(stringify(parse(columns))).toBe(columns)
  })

  it("is columns of columns with their width in GitBook's document, which reads back the same", () => {
    const document = toDocument(columns)
    expect(schemaErrors(document)).toEqual([])
    const node = document.nodes?.[0]
    expect(node?.type).toBe("columns")
    expect(node?.object === "block" ? node.nodes?.map((column) => column.object === "block" ? [column.type, column.data] : []) : [])
      .toEqual([["column", { width: { value: 33.3, unit: "%" } }], ["column", {}]])
    expect(fromDocument(document)).toBe(columns)
  })

  it("holds a stepper in a column, as GitBook's schema allows", () => {
    const markdown = `{% columns %}\n{% column %}\n${stepper.slice(stepper.indexOf("{% stepper"))}{% endcolumn %}\n{% endcolumns %}\n`
    const document = toDocument(markdown)
    expect(schemaErrors(document)).toEqual([])
    const column = kids(kids(render(markdown), "div", "columns")[0], "div", "column")[0]
    expect(kids(kids(column, "ol", "stepper")[0], "li", "step")).toHaveLength(3)
    expect(stringify(parse(markdown))).toBe(markdown)
  })
})

describe("links in steps and columns", () => {
  it("are found and rewritten in place, the blocks around them untouched", () => {
    const markdown =
      "{% stepper %}\n{% step %}\nRead [the guide](guide.md).\n{% endstep %}\n{% endstepper %}\n\n{% columns %}\n{% column %}\n![A map](map.png)\n{% endcolumn %}\n{% endcolumns %}\n"
    expect(linksOf(markdown).map((link) => [link.kind, link.url])).toEqual([["link", "guide.md"], ["image", "map.png"]])
    expect(rewriteLinks(markdown, (link) => link.url === "guide.md" ? "start/guide.md" : undefined)).toBe(
      markdown.replace("(guide.md)", "(start/guide.md)")
    )
  })
})

describe("math", () => {
  it("lays out inline and block math on the server as MathML, with its TeX kept", () => {
    const html = render(math)
    const inline = kids(kids(html, "p")[0], "span", "math")[0]
    const block = find(kids(html, "div", "math")[0], "math")
    expect(words(find(inline, "annotation"))).toBe("\\pi r^2")
    expect(block?.properties["display"]).toBe("block")
    expect(find(block, "mfrac")).toBeDefined()
    expect(stringify(parse(math))).toBe(math)
  })
})
