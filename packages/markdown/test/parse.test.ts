import type { Nodes, Root } from "mdast"
import { describe, expect, it } from "vitest"
import { parse, stringify } from "../src/index.js"

/** The tree without positions, for comparing shapes. */
const shape = (markdown: string): unknown =>
  JSON.parse(
    JSON.stringify(
      parse(markdown),
      (key, value: unknown) => (key === "position" || key === "data" && isMathData(value) ? undefined : value)
    )
  )

// mdast-util-math leaves hast hints on math nodes; they say nothing about the markdown.
const isMathData = (value: unknown) => typeof value === "object" && value !== null && "hName" in value

const types = (root: Root | Nodes): Array<string> => "children" in root ? root.children.map((child) => child.type) : []

const text = (value: string) => ({ type: "text", value })
const paragraph = (...children: Array<unknown>) => ({ type: "paragraph", children })

describe("parse", () => {
  it("reads GFM, front matter and math", () => {
    const tree = parse(
      "---\ndescription: x\n---\n\n| a | b |\n| - | - |\n| 1 | ~~2~~ |\n\n* [x] done\n* [ ] todo\n\nSee https://example.com\n\n$$\nx^2\n$$\n"
    )
    expect(types(tree)).toEqual(["yaml", "table", "list", "paragraph", "math"])
    expect(shape("* [x] done")).toMatchObject({ children: [{ type: "list", children: [{ checked: true }] }] })
    expect(shape("See https://example.com")).toMatchObject({
      children: [paragraph(text("See "), { type: "link", url: "https://example.com", children: [text("https://example.com")] })]
    })
  })

  it("reads hints, with markdown inside, and hints in lists", () => {
    expect(shape("{% hint style=\"warning\" %}\nCareful **now**\n* a\n{% endhint %}")).toEqual({
      type: "root",
      children: [{
        type: "hint",
        style: "warning",
        children: [
          paragraph(text("Careful "), { type: "strong", children: [text("now")] }),
          {
            type: "list",
            ordered: false,
            start: null,
            spread: false,
            children: [{ type: "listItem", spread: false, checked: null, children: [paragraph(text("a"))] }]
          }
        ]
      }]
    })
    expect(shape("* step\n\n  {% hint style=\"info\" %}\n  inside\n  {% endhint %}")).toMatchObject({
      children: [{
        type: "list",
        children: [{ children: [paragraph(text("step")), { type: "hint", style: "info", children: [paragraph(text("inside"))] }] }]
      }]
    })
  })

  it("reads tabs", () => {
    const tree = parse(
      "{% tabs %}\n{% tab title=\"JS\" %}\n```js\nx\n```\n{% endtab %}\n\n{% tab title='Py' %}\ntext\n{% endtab %}\n{% endtabs %}"
    )
    expect(
      shape("{% tabs %}\n{% tab title=\"JS\" %}\n```js\nx\n```\n{% endtab %}\n\n{% tab title='Py' %}\ntext\n{% endtab %}\n{% endtabs %}")
    ).toEqual({
      type: "root",
      children: [{
        type: "tabs",
        children: [
          { type: "tab", title: "JS", children: [{ type: "code", lang: "js", meta: null, value: "x" }] },
          { type: "tab", title: "Py", children: [paragraph(text("text"))] }
        ]
      }]
    })
    expect(tree.children[0]?.position?.start.offset).toBe(0)
  })

  it("reads code titles from a code tag or from the fence's meta", () => {
    expect(shape("{% code title=\"a.js\" overflow=\"wrap\" lineNumbers=\"true\" %}\n```js\nlet a\n```\n{% endcode %}")).toEqual({
      type: "root",
      children: [{ type: "code", lang: "js", meta: null, value: "let a", data: { title: "a.js", overflow: "wrap", lineNumbers: true } }]
    })
    expect(shape("```ts title=\"b.ts\" {1}\nb\n```")).toEqual({
      type: "root",
      children: [{ type: "code", lang: "ts", meta: "{1}", value: "b", data: { title: "b.ts" } }]
    })
  })

  it("reads embeds, content refs, files and includes", () => {
    expect(shape([
      "{% embed url=\"https://youtu.be/x\" %}",
      "",
      "{% embed url=\"https://youtu.be/y\" %}",
      "A caption",
      "{% endembed %}",
      "",
      "{% content-ref url=\"other.md\" %}",
      "[other.md](other.md)",
      "{% endcontent-ref %}",
      "",
      "{% file src=\"/files/f1\" %}",
      "",
      "{% include \"../.gitbook/includes/x.md\" %}"
    ].join("\n"))).toEqual({
      type: "root",
      children: [
        { type: "embed", url: "https://youtu.be/x", children: [] },
        { type: "embed", url: "https://youtu.be/y", children: [paragraph(text("A caption"))] },
        {
          type: "contentRef",
          url: "other.md",
          children: [paragraph({ type: "link", title: null, url: "other.md", children: [text("other.md")] })]
        },
        { type: "file", url: "/files/f1", children: [] },
        { type: "include", path: "../.gitbook/includes/x.md" }
      ]
    })
  })

  it("reads expandables, with or without blank lines, and figures", () => {
    const expected = {
      type: "expandable",
      title: "More & more",
      open: false,
      children: [paragraph(text("Hidden "), { type: "emphasis", children: [text("text")] })]
    }
    expect(shape("<details>\n\n<summary>More &amp; more</summary>\n\nHidden *text*\n\n</details>")).toEqual({
      type: "root",
      children: [expected]
    })
    expect(shape("<details>\n<summary>More &amp; more</summary>\nHidden *text*\n</details>")).toEqual({
      type: "root",
      children: [expected]
    })
    expect(shape("<details open><summary>Short</summary>\n\nbody\n\n</details>")).toEqual({
      type: "root",
      children: [{ type: "expandable", title: "Short", open: true, children: [paragraph(text("body"))] }]
    })
    expect(shape("<figure><img src=\"../.gitbook/assets/a.png\" alt=\"An A\"><figcaption><p>The <b>caption</b></p></figcaption></figure>"))
      .toEqual({
        type: "root",
        children: [{ type: "figure", url: "../.gitbook/assets/a.png", alt: "An A", caption: "The caption" }]
      })
  })

  it("keeps unknown tags, unpaired tags and unknown HTML verbatim", () => {
    expect(shape("{% unknown thing %}\nkept\n{% endunknown %}\n\n<div>raw</div>\n\n{% hint style=\"info\" %}\nunclosed")).toEqual({
      type: "root",
      children: [
        { type: "html", value: "{% unknown thing %}" },
        paragraph(text("kept")),
        { type: "html", value: "{% endunknown %}" },
        { type: "html", value: "<div>raw</div>" },
        { type: "html", value: "{% hint style=\"info\" %}" },
        paragraph(text("unclosed"))
      ]
    })
    // A hint of an unknown style, and tabs holding something else than tabs.
    expect(types(parse("{% hint style=\"purple\" %}\nx\n{% endhint %}"))).toEqual(["html", "paragraph", "html"])
    expect(types(parse("{% tabs %}\nstray\n{% endtabs %}"))).toEqual(["html", "paragraph", "html"])
  })

  it("does not read tags inside code, or in the middle of a line", () => {
    expect(types(parse("```\n{% hint style=\"info\" %}\n```\n\n    {% hint %}\n\nsee {% hint %} here"))).toEqual([
      "code",
      "code",
      "paragraph"
    ])
  })

  it("ends a paragraph at a tag line", () => {
    expect(shape("{% hint style=\"info\" %}\nline one\nline two\n{% endhint %}")).toEqual({
      type: "root",
      children: [{ type: "hint", style: "info", children: [paragraph(text("line one\nline two"))] }]
    })
  })
})

describe("stringify", () => {
  const roundTrip = (markdown: string) => stringify(parse(markdown))

  it("writes GitBook's blocks back as tags", () => {
    const markdown = [
      "{% hint style=\"warning\" %}",
      "Careful **now**",
      "",
      "* a",
      "* b",
      "{% endhint %}",
      "",
      "{% tabs %}",
      "{% tab title=\"JS\" %}",
      "```js",
      "x",
      "```",
      "{% endtab %}",
      "",
      "{% tab title=\"Py\" %}",
      "text",
      "{% endtab %}",
      "{% endtabs %}",
      "",
      "{% code title=\"a.js\" lineNumbers=\"true\" %}",
      "```js",
      "let a",
      "```",
      "{% endcode %}",
      "",
      "{% embed url=\"https://youtu.be/x\" %}",
      "",
      "{% embed url=\"https://youtu.be/y\" %}",
      "A caption",
      "{% endembed %}",
      "",
      "{% content-ref url=\"other.md\" %}",
      "[other.md](other.md)",
      "{% endcontent-ref %}",
      "",
      "{% file src=\"/files/f1\" %}",
      "",
      "{% include \"../.gitbook/includes/x.md\" %}",
      "",
      "<details open>",
      "",
      "<summary>More &amp; more</summary>",
      "",
      "Hidden *text*",
      "",
      "</details>",
      "",
      "<figure><img src=\"a.png\" alt=\"An &quot;A&quot;\"><figcaption><p>The caption</p></figcaption></figure>",
      "",
      "$$",
      "x^2",
      "$$",
      ""
    ].join("\n")
    expect(roundTrip(markdown)).toBe(markdown)
  })

  it("writes GitBook's style: * bullets, fenced code, escaped text that would read as a tag", () => {
    expect(roundTrip("- a\n- b\n\n---\n\n    code\n")).toBe("* a\n* b\n\n***\n\n```\ncode\n```\n")
    const escaped = stringify({
      type: "root",
      children: [{ type: "paragraph", children: [{ type: "text", value: "{% hint %}\n<details>" }] }]
    })
    expect(escaped).toBe("\\{% hint %}\n\\<details>\n")
    expect(shape(escaped)).toEqual({ type: "root", children: [paragraph(text("{% hint %}\n<details>"))] })
  })

  it("moves a code title from the meta into a code tag, and keeps unknown html and tags as they were", () => {
    expect(roundTrip("```ts title=\"b.ts\" {1}\nb\n```")).toBe("{% code title=\"b.ts\" %}\n```ts {1}\nb\n```\n{% endcode %}\n")
    expect(roundTrip("{% unknown thing %}\n\n<div>raw</div>\n")).toBe("{% unknown thing %}\n\n<div>raw</div>\n")
  })

  it("writes a content ref without its link with one", () => {
    expect(stringify({ type: "root", children: [{ type: "contentRef", url: "/pages/p1", children: [] }] })).toBe(
      "{% content-ref url=\"/pages/p1\" %}\n[/pages/p1](/pages/p1)\n{% endcontent-ref %}\n"
    )
  })

  it("keeps values with quotes readable in tags", () => {
    const tree: Root = { type: "root", children: [{ type: "tabs", children: [{ type: "tab", title: "Say \"hi\"", children: [] }] }] }
    expect(stringify(tree)).toBe("{% tabs %}\n{% tab title='Say \"hi\"' %}\n{% endtab %}\n{% endtabs %}\n")
    expect(shape(stringify(tree))).toEqual({
      type: "root",
      children: [{ type: "tabs", children: [{ type: "tab", title: "Say \"hi\"", children: [] }] }]
    })
  })
})
