import * as v8 from "node:v8"
import * as vm from "node:vm"
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { toString } from "mdast-util-to-string"
import { visit } from "unist-util-visit"
import { vi } from "vitest"
import { decodeHtml, type MarkdownRewrite, readHtml, STRINGIFY_MARKERS } from "../src/html.js"
import { parse } from "../src/parse.js"
import { stringify } from "../src/stringify.js"

// The last tree hast-util-from-html made, held weakly: whether a read page still holds it.
const parsed = vi.hoisted(() => ({ last: undefined as WeakRef<object> | undefined }))
vi.mock("hast-util-from-html", async (importOriginal) => {
  const original = await importOriginal<typeof import("hast-util-from-html")>()
  const fromHtml: typeof original.fromHtml = (...args) => {
    const tree = original.fromHtml(...args)
    parsed.last = new WeakRef(tree)
    return tree
  }
  return { ...original, fromHtml }
})

/** A full garbage collection: V8 hands out `gc` to contexts made once --expose-gc is set. */
const collectGarbage = (): void => {
  v8.setFlagsFromString("--expose-gc")
  ;(vm.runInNewContext("gc") as () => void)()
}

const PAGE = "https://docs.example.com/guide/start.html"

const asIs: MarkdownRewrite = { link: (url) => url, image: (url) => url }

/** The markdown of a page whose main content is `html`. */
const markdownOf = (html: string, rewrite: MarkdownRewrite = asIs): string => readHtml(`<main>${html}</main>`, PAGE).toMarkdown(rewrite)

/** The cells of the one table `markdown` holds, read back as text. */
const gridOf = (markdown: string): ReadonlyArray<ReadonlyArray<string>> => {
  const [table, ...rest] = parse(markdown).children
  expect([table?.type, rest.length]).toEqual(["table", 0])
  return table?.type === "table" ? table.children.map((row) => row.children.map((cell) => toString(cell))) : []
}

describe("readHtml: markdown", () => {
  it("writes headings as # to ######, their text only", () => {
    expect(
      markdownOf(
        "<h1>Title</h1><h1>One <em>big</em></h1><h2>Two <a href='/x'>linked</a></h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six <code>x</code></h6>"
      )
    )
      .toBe("# One big\n\n## Two linked\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six x\n")
  })

  it("leaves permalink anchors and empty headings out, and escapes a closing run of #", () => {
    expect(markdownOf("<h1>T</h1><h2 id='a'>Install <a class='anchor' href='#a'>¶</a></h2><h3></h3><h2>C# or F #</h2>"))
      .toBe("## Install\n\n## C# or F \\#\n")
  })

  it("separates paragraphs by one blank line, turns <br> into a hard break and two into a new paragraph", () => {
    expect(markdownOf("<p>First   paragraph\n  spread\tover lines.</p>\n\n<p>Second<br>line two<br> <br>third</p><div>In a div</div>"))
      .toBe("First paragraph spread over lines.\n\nSecond\\\nline two\n\nthird\n\nIn a div\n")
  })

  it("writes strong, emphasis, inline code and deletions, keeping edge whitespace outside the delimiters", () => {
    expect(markdownOf("<p><strong>a</strong> <b> b </b>c <em>d</em> <i>e</i> <code>f()</code> <del>g</del> <s>h</s></p>"))
      .toBe("**a** **b** c *d* *e* `f()` ~~g~~ ~~h~~\n")
  })

  it("fences inline code with a run of backticks that no run in it matches", () => {
    expect(markdownOf("<p><code>a`b</code> and <code>``x``</code> and <code>  spaced   out </code></p>"))
      .toBe("``a`b`` and ` ``x`` ` and `spaced out`\n")
  })

  it("does not double delimiters of nested emphasis, and joins emphasis that touches", () => {
    expect(markdownOf("<p><b>bold <strong>still</strong> and <i>both</i></b></p>")).toBe("**bold still and _both_**\n")
    expect(markdownOf("<p><b>a</b><b>b</b> <i>c</i><i>d</i> <del>e</del><s>f</s></p>")).toBe("**ab** *cd* ~~ef~~\n")
  })

  it("writes emphasis with the delimiters stringify uses", () => {
    const emphasis = (type: "emphasis" | "strong" | "delete") =>
      stringify({ type: "root", children: [{ type: "paragraph", children: [{ type, children: [{ type: "text", value: "x" }] }] }] })
    expect([emphasis("emphasis"), emphasis("strong"), emphasis("delete")]).toEqual([
      `${STRINGIFY_MARKERS.emphasis}x${STRINGIFY_MARKERS.emphasis}\n`,
      `${STRINGIFY_MARKERS.strong.repeat(2)}x${STRINGIFY_MARKERS.strong.repeat(2)}\n`,
      `${STRINGIFY_MARKERS.delete.repeat(2)}x${STRINGIFY_MARKERS.delete.repeat(2)}\n`
    ])
  })

  it("keeps emphasis only where its delimiters open and close, so that none is written as character references", () => {
    const token = fc.constantFrom(
      "<b>",
      "</b>",
      "<i>",
      "</i>",
      "<s>",
      "</s>",
      "a",
      "(",
      ")",
      " ",
      "&nbsp;",
      "*",
      "_",
      ".",
      "<code>c</code>",
      "<a href='/l'>",
      "</a>",
      "<br>"
    )
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
        const markdown = markdownOf(`<p>${tokens.join("")}</p>`)
        expect(markdown).not.toMatch(/&#x/)
        expect(stringify(parse(markdown))).toBe(markdown)
      }),
      { numRuns: 1_000 }
    )
  })

  it("writes emphasis inside a word with asterisks, and leaves out emphasis no delimiter can express", () => {
    expect(markdownOf("<p>un<i>believ</i>able <b>bold</b>ly</p>")).toBe("un*believ*able **bold**ly\n")
    // `foo**(bar)**` would show its asterisks: the text is kept, the bold is not.
    expect(markdownOf("<p>foo<b>(bar)</b> and<b>&nbsp;spaced&nbsp;</b>out</p>")).toBe("foo(bar) and\u00a0**spaced**\u00a0out\n")
  })

  it("writes links and images through the rewrite, with absolute URLs, fragments kept for links", () => {
    const calls: Array<string> = []
    const rewrite: MarkdownRewrite = {
      link: (url) => {
        calls.push(`link ${url}`)
        return url.startsWith("https://docs.example.com/") ? `/imported/${url.slice(25)}` : url
      },
      image: (url) => {
        calls.push(`image ${url}`)
        return `.gitbook/assets/${url.split("/").pop() ?? ""}`
      }
    }
    expect(
      markdownOf(
        "<p>See <a href='setup.html#install'>the setup</a>, <a href='https://other.org/a b?q=(1)'>elsewhere</a> and <img src='../img/shot.png' alt='A shot'>.</p>",
        rewrite
      )
    )
      .toBe(
        "See [the setup](/imported/guide/setup.html#install), [elsewhere](https://other.org/a%20b?q=\\(1\\)) and ![A shot](.gitbook/assets/shot.png).\n"
      )
    expect(calls).toEqual([
      "link https://docs.example.com/guide/setup.html#install",
      "link https://other.org/a%20b?q=(1)",
      "image https://docs.example.com/img/shot.png"
    ])
  })

  it("keeps mailto links, renders javascript links and data images without a target", () => {
    expect(
      markdownOf(
        "<p><a href='mailto:team@example.com'>Mail us</a> <a href='javascript:void(0)'>Menu</a> <img src='data:image/png;base64,AAAA' alt='dot'> <a name='anchor'>here</a></p>"
      )
    )
      .toBe("[Mail us](mailto:team@example.com) Menu here\n")
  })

  it("writes an image inside a link, and names an icon-only link by its label", () => {
    expect(
      markdownOf(
        "<p><a href='/home'><img src='/logo.svg' alt='Logo'></a> <a href='/search' aria-label='Search'><svg></svg></a> <a href='/empty'> </a></p>"
      )
    )
      .toBe("[![Logo](https://docs.example.com/logo.svg)](https://docs.example.com/home) [Search](https://docs.example.com/search)\n")
  })

  it("flattens a link around blocks into its text", () => {
    expect(markdownOf("<a href='/card'><div><h3>Card</h3><p>What it does</p></div></a>"))
      .toBe("[Card What it does](https://docs.example.com/card)\n")
  })

  it("keeps a link inside inline code a link", () => {
    expect(markdownOf("<p>Call <code><a href='/api#run'>run()</a></code>.</p>")).toBe("Call [`run()`](https://docs.example.com/api#run).\n")
  })

  it("writes unordered and ordered lists, honouring start", () => {
    expect(markdownOf("<ul><li>One</li><li>Two</li></ul><p>Then</p><ol start='3'><li>Three</li><li>Four</li></ol><ol><li>A</li></ol>"))
      .toBe("* One\n* Two\n\nThen\n\n3. Three\n4. Four\n\n1) A\n")
  })

  it("indents nested lists under their item", () => {
    expect(
      markdownOf(
        "<ul><li>Fruit<ul><li>Apple</li><li>Pear<ol><li>Conference</li></ol></li></ul></li><li>Bread</li></ul><ol start='9'><li>Nine<ul><li>Sub</li></ul></li><li>Ten</li></ol>"
      )
    )
      .toBe("* Fruit\n  * Apple\n  * Pear\n    1. Conference\n* Bread\n\n9. Nine\n   * Sub\n10. Ten\n")
  })

  it("writes items of several paragraphs as a loose list, code blocks indented within", () => {
    expect(
      markdownOf(
        "<ol><li><p>Install:</p><pre><code>npm i\n\nnpm test</code></pre></li><li><p>Run it.</p><p>Then stop.</p></li><li>Done</li></ol>"
      )
    )
      .toBe("1. Install:\n\n   ```\n   npm i\n\n   npm test\n   ```\n\n2. Run it.\n\n   Then stop.\n\n3. Done\n")
  })

  it("keeps lists that follow each other apart, and puts a list straight inside a list under the item before", () => {
    expect(markdownOf("<ul><li>a</li></ul><ul><li>b</li></ul><ul><li>c</li><ul><li>c1</li></ul></ul>"))
      .toBe("* a\n\n- b\n\n* c\n  * c1\n")
  })

  it("writes a rule that opens an item so that it stays in the item", () => {
    expect(markdownOf("<ul><li><hr></li><li>b</li></ul>")).toBe("- ***\n- b\n")
  })

  it("writes task list checkboxes", () => {
    expect(markdownOf("<ul><li><input type='checkbox' checked> Done</li><li><input type='checkbox'> To do</li></ul>")).toBe(
      "* [x] Done\n* [ ] To do\n"
    )
  })

  it("fences code blocks with their language, verbatim, the fence longer than any backtick run", () => {
    expect(markdownOf("<pre><code class='hljs language-js'>if (a &lt; b &amp;&amp; c) {\n  log(`x`)\n}\n</code></pre>"))
      .toBe("```js\nif (a < b && c) {\n  log(`x`)\n}\n```\n")
    expect(markdownOf("<pre><code class='lang-py'>print('*not* _markdown_')</code></pre>")).toBe("```py\nprint('*not* _markdown_')\n```\n")
    expect(markdownOf("<pre class='language-sh'>echo ```\n<b>bold</b> stays text</pre>")).toBe("````sh\necho ```\nbold stays text\n````\n")
    expect(markdownOf("<pre><code><span class='line'>one</span><br><span class='line'>two</span></code></pre>")).toBe(
      "```\none\ntwo\n```\n"
    )
  })

  it("writes tables with their header row and alignment, escaping pipes and flattening cells", () => {
    expect(
      markdownOf(
        "<table><thead><tr><th>Name</th><th align='right'>Value</th><th style='color: red; text-align: center'>C</th></tr></thead><tbody><tr><td><code>a|b</code></td><td><p>one</p><p>two<br>three</p></td><td><ul><li>x</li><li>y</li></ul></td></tr><tr><td><a href='/x'>x</a></td><td>*</td><td><pre>a\n b</pre></td></tr></tbody></table>"
      )
    )
      .toBe(
        "| Name                            |         Value |   C   |\n" +
          "| ------------------------------- | ------------: | :---: |\n" +
          "| `a\\|b`                          | one two three |  x y  |\n" +
          "| [x](https://docs.example.com/x) |            \\* | `a b` |\n"
      )
  })

  it("takes the first row as the header of a table without one, and fills spanned cells", () => {
    expect(
      markdownOf(
        "<table><caption>Totals</caption><tr><td>a</td><td>b</td><td>c</td></tr><tr><td colspan='2'>wide</td><td>1</td></tr><tr><td rowspan='2'>tall</td><td>2</td></tr><tr><td>3</td></tr></table>"
      )
    )
      .toBe("Totals\n\n| a    | b | c |\n| ---- | - | - |\n| wide |   | 1 |\n| tall | 2 |   |\n|      | 3 |   |\n")
  })

  it("writes at most 64 columns, the cells past them joining the last", () => {
    const cells = Array.from({ length: 100 }, (_, i) => `<td>c${i}</td>`).join("")
    const [header, row] = gridOf(
      markdownOf(`<table><tr>${cells}</tr><tr><td colspan='100'>a</td><td>b</td><td colspan='9'>c</td></tr></table>`)
    )
    const joined = Array.from({ length: 37 }, (_, i) => `c${i + 63}`).join(" ")
    expect(header).toEqual([...Array.from({ length: 63 }, (_, i) => `c${i}`), joined])
    expect(row).toEqual(["a", ...Array(62).fill(""), "b c"])
  })

  it("writes a table of more than 10,000 cells a paragraph a row, as long as its text", () => {
    // 200 cells of colspan 100 over 200 rows padded each row to 20,000 cells: 12 MB of markdown.
    const wide = `<table><tr>${"<td colspan=100></td>".repeat(200)}${"<tr><td>x".repeat(200)}</table>`
    expect(markdownOf(wide)).toBe(`${Array(200).fill("x").join("\n\n")}\n`)
    const rows = `<table><tr><th colspan=64>Head</th></tr>${"<tr><td>a</td><td></td><td>- b</td></tr>".repeat(200)}</table>`
    expect(markdownOf(rows)).toBe(`Head\n\n${Array(200).fill("a | - b").join("\n\n")}\n`)
    // Spans that fill 64 columns over 100 rows, row after row.
    const spanned = `<table>${`<tr><td rowspan=100 colspan=100>a</td>${"<tr>".repeat(99)}`.repeat(30)}</table>`
    expect(markdownOf(spanned)).toBe(`${Array(30).fill("a").join("\n\n")}\n`)
    // Up to the limit, a table is still a table: 156 rows of 64 cells, but not 157.
    const table = (rows: number) => markdownOf(`<table>${`<tr>${"<td>x</td>".repeat(64)}</tr>`.repeat(rows)}</table>`)
    const row = Array(64).fill("x")
    expect(gridOf(table(156))).toEqual(Array(156).fill(row))
    expect(table(157)).toBe(`${Array(157).fill(row.join(" | ")).join("\n\n")}\n`)
  })

  it("writes a table a paragraph a row when its padded grid would pass a million characters", () => {
    // stringify pads every cell to its column's widest: one long cell would be written on every row.
    const long = "y".repeat(100_000)
    expect(markdownOf(`<table><tr><td>${long}</td></tr>${"<tr><td>x</td></tr>".repeat(9)}</table>`)).toBe(
      `${[long, ...Array(9).fill("x")].join("\n\n")}\n`
    )
    expect(gridOf(markdownOf(`<table><tr><td>${long}</td></tr>${"<tr><td>x</td></tr>".repeat(8)}</table>`))).toEqual([
      [long],
      ...Array(8).fill(["x"])
    ])
  })

  it("reads a table that lays out other tables as blocks", () => {
    expect(markdownOf("<table><tr><td><p>Left</p></td><td><table><tr><th>k</th></tr><tr><td>v</td></tr></table></td></tr></table>"))
      .toBe("Left\n\n| k |\n| - |\n| v |\n")
  })

  it("writes blockquotes and rules", () => {
    expect(markdownOf("<blockquote><p>Quoted</p><ul><li>item</li></ul><blockquote>deeper</blockquote></blockquote><hr><p>After</p>"))
      .toBe("> Quoted\n>\n> * item\n>\n> > deeper\n\n***\n\nAfter\n")
  })

  it("writes rules as ***, so that a page opening with one is not read as front matter", () => {
    const markdown = markdownOf("<hr><p>hidden: true</p><p>Intro</p><hr><p>body</p>")
    expect(markdown).toBe("***\n\nhidden: true\n\nIntro\n\n***\n\nbody\n")
    expect(parse(markdown).children.map((node) => node.type)).toEqual([
      "thematicBreak",
      "paragraph",
      "paragraph",
      "thematicBreak",
      "paragraph"
    ])
    // "* ***" would be a rule, not an item holding one.
    expect(markdownOf("<ul><li>a</li></ul><ul><li><hr></li><li>b</li></ul>")).toBe("* a\n\n- ***\n- b\n")
  })

  it("escapes characters that would change meaning, and no others", () => {
    expect(markdownOf("<p>Use *stars*, _under_scores_, `ticks`, [brackets] and ~tilde~ in 1.5 km. That's it!</p>"))
      .toBe("Use \\*stars\\*, \\_under_scores\\_, \\`ticks\\`, \\[brackets] and \\~tilde\\~ in 1.5 km. That's it!\n")
    expect(markdownOf("<p>&lt;div&gt; &amp;copy; a &lt; b &amp; c \\* C:\\Temp</p>")).toBe("\\<div> \\&copy; a < b & c \\\\\\* C:\\Temp\n")
    expect(
      markdownOf(
        "<p># Not a heading</p><p>- not an item</p><p>+ nor this</p><p>12. nor this</p><p>3) nor</p><p>&gt; no quote</p><p>---</p><p>a<br>===</p><p>#hashtag -dash 2.0</p>"
      )
    )
      .toBe(
        "\\# Not a heading\n\n\\- not an item\n\n\\+ nor this\n\n12\\. nor this\n\n3\\) nor\n\n\\> no quote\n\n\\---\n\na\\\n\\===\n\n\\#hashtag -dash 2.0\n"
      )
    expect(markdownOf("<p>Wow!<a href='/x'>link</a></p>")).toBe("Wow\\![link](https://docs.example.com/x)\n")
    expect(markdownOf("<p>Mail &lt;me@example.com&gt; or &lt;https://example.com&gt;, 1 &lt; 2</p>")).toBe(
      "Mail \\<me\\@example.com> or \\<https\\://example.com>, 1 < 2\n"
    )
    expect(markdownOf("<p>a<br>- - -<br>b | c<br>--|--</p>")).toBe("a\\\n\\- - -\\\nb | c\\\n\\--|--\n")
    expect(markdownOf("<p><b>1</b>. first <b>#</b> tag</p>")).toBe("**1**. first **#** tag\n")
    // GitBook's tags and math are escaped too.
    expect(markdownOf("<p>{% hint style=\"info\" %} costs $$5</p>")).toBe("\\{% hint style=\"info\" %} costs \\$\\$5\n")
  })

  it("renders the children of unknown and layout elements", () => {
    expect(
      markdownOf(
        "<section><div><span>Hello</span> <my-widget>world</my-widget></div><custom-card><p>Inside</p></custom-card><span>a<div>b</div>c</span></section>"
      )
    )
      .toBe("Hello world\n\nInside\n\na\n\nb\n\nc\n")
  })

  it("reads emphasis around blocks as the blocks, and items outside a list as a list", () => {
    expect(markdownOf("<span><i>x<ul><li>y</li></ul></i></span><b><pre>code</pre></b>")).toBe("x\n\n* y\n\n```\ncode\n```\n")
    expect(markdownOf("<p><b>a<div>b</div>c</b></p>")).toBe("**a**\n\n**b**\n\n**c**\n")
    expect(markdownOf("<li>stray</li><li>two</li>")).toBe("* stray\n* two\n")
  })

  it("leaves out nested emphasis that stringify could only write with character references", () => {
    // `*a**a***` would be written `*&#x61;__&#x61;__*`.
    expect(markdownOf("<p><b>a <i>b</i></b> and <i>x<b>y</b></i></p>")).toBe("**a _b_** and *xy*\n")
  })

  it("drops scripts, styles, forms, buttons, embedded content and hidden elements", () => {
    expect(
      markdownOf(
        "<p>Kept</p><script>alert(1)</script><style>p{}</style><noscript>Enable JS</noscript><template><p>t</p></template><svg><text>s</text></svg><iframe src='x'></iframe><form><p>Subscribe</p><input></form><button>Click</button><div hidden>secret</div><span aria-hidden='true'>icon</span>"
      )
    )
      .toBe("Kept\n")
  })

  it("keeps any character of the text, private use ones included", () => {
    const rewrite: MarkdownRewrite = { link: () => "LINK", image: () => "IMAGE" }
    expect(markdownOf("<p>a\uE0020\uE003b <a href='/x'>\uE001c</a>\uE000d</p>", rewrite)).toBe("a\uE0020\uE003b [\uE001c](LINK)\uE000d\n")
  })

  it("ends with one newline and starts with text; an empty page is empty", () => {
    expect(markdownOf("\n\n  <p>  x  </p>\n\n")).toBe("x\n")
    expect(markdownOf("")).toBe("")
    expect(markdownOf("<p> </p><div><br></div>")).toBe("")
    expect(markdownOf("<p>a</p><p>&nbsp;</p><p><b>&nbsp;</b></p><p>b</p>")).toBe("a\n\nb\n")
  })

  it("tells permalink anchors from a heading's text in one walk, however deep they nest", () => {
    // Anchors nest through table cells; reading each one's text afresh was quadratic, a minute for this.
    const anchors = (depth: number) => "<a href='#'><table><tr><td>¶ ".repeat(depth)
    expect(markdownOf(`<h2>Title ${anchors(1_000)}</h2>`)).toBe("## Title\n")
    expect(markdownOf(`<h2>Title ${anchors(15_000)}x</h2>`)).toBe(`## Title ${Array(15_000).fill("¶").join(" ")} x\n`)
  })

  it("reads long runs of spaces and dashes without backtracking over them", () => {
    // Each was quadratic in the run's length (`\s+$` and the like), minutes for these.
    const run = 250_000
    expect(markdownOf(`<pre>a${" ".repeat(run)}b</pre>`)).toBe(`\`\`\`\na${" ".repeat(run)}b\n\`\`\`\n`)
    expect(markdownOf(`<p>a${"\u00a0".repeat(run)}b</p>`)).toBe(`a${"\u00a0".repeat(run)}b\n`)
    expect(markdownOf(`<ul>a${" ".repeat(run)}b</ul>`)).toBe("* a b\n")
    expect(markdownOf(`<p><b>a${"\u00a0".repeat(run)}b</b></p>`)).toBe(`**a${"\u00a0".repeat(run)}b**\n`)
    expect(markdownOf(`<p>|${"-".repeat(run)}x</p>`)).toBe(`\\|${"-".repeat(run)}x\n`)
  })

  it("reads runs of thousands of inline elements that show nothing in linear time", () => {
    // hast-util-to-mdast's whitespace minifier scans past such elements from each of their siblings: minutes for these.
    expect(markdownOf(`<p>${"<span></span> <!-- -->".repeat(20_000)}x${"<a href='/x'><i> </i></a>".repeat(20_000)}</p>`)).toBe("x\n")
    expect(markdownOf(`<p>${"<a href='/x' aria-label='L'><svg></svg></a>".repeat(20_000)}</p>`)).toBe(
      `${"[L](https://docs.example.com/x)".repeat(20_000)}\n`
    )
  })

  it("gives up structure past a deep nesting instead of failing", () => {
    const deep = `${"<div>".repeat(20_000)}deep${"</div>".repeat(20_000)}<p>${"<span><b>".repeat(5_000)}deeper</p>`
    expect(markdownOf(deep)).toBe("deep\n\n**deeper**\n")
    for (const open of ["<ul>", "<ol><li>", "<blockquote>", "<table><tr><td>", "<a href='x'>", "<i><s>", "<ul><div>", "<dl><dd>"]) {
      expect([open, toString(parse(markdownOf(`${open.repeat(20_000)}deep`)))]).toEqual([open, "deep"])
    }
  })
})

describe("readHtml: page", () => {
  it("resolves links and images against the page and against <base href>", () => {
    const page = readHtml(
      "<head><base href='/assets/v2/'></head><body><main><a href='intro'>Intro</a><img src='pic.png'></main></body>",
      PAGE
    )
    expect(page.links).toEqual(["https://docs.example.com/assets/v2/intro"])
    expect(page.images).toEqual(["https://docs.example.com/assets/v2/pic.png"])
    const absolute = readHtml("<base href='https://cdn.example.net/x/'><a href='y'>y</a>", PAGE)
    expect(absolute.links).toEqual(["https://cdn.example.net/x/y"])
  })

  it("lists every http(s) link of the document once, without fragments, navigation included", () => {
    const page = readHtml(
      `<nav><a href="/">Home</a><a href="start.html#top">Top</a></nav>
       <main><a href="setup.html#a">A</a><a href="setup.html#b">B</a><a href="mailto:x@example.com">Mail</a>
       <a href="javascript:go()">Go</a><a href="ftp://files.example.com/">Files</a><a href="http://[bad">Bad</a><a>none</a></main>
       <footer><a href="https://other.org/Page?q=1#f">Other</a></footer>
       <svg><a href="/drawing"></a></svg><template><a href="/later">Later</a></template>`,
      PAGE
    )
    expect(page.links).toEqual([
      "https://docs.example.com/",
      "https://docs.example.com/guide/start.html",
      "https://docs.example.com/guide/setup.html",
      "https://other.org/Page?q=1"
    ])
  })

  it("lists the http(s) images of the main content only, once each, in order", () => {
    const page = readHtml(
      "<header><img src='/logo.png'></header><main><img src='a.png'><p><img src='b.png'><img src='a.png'><img src='data:image/gif;base64,R0lGOD'></p><script>'<img src=c.png>'</script></main>",
      PAGE
    )
    expect(page.images).toEqual(["https://docs.example.com/guide/a.png", "https://docs.example.com/guide/b.png"])
  })

  it("takes the title from the first <h1> of the main content and leaves that heading out", () => {
    const page = readHtml("<title>Site | Page</title><header><h1>Site</h1></header><main><h1>  The\n  page  </h1><p>Body</p></main>", PAGE)
    expect(page.title).toBe("The page")
    expect(page.toMarkdown(asIs)).toBe("Body\n")
  })

  it("finds the title in one walk, however deep headings without text nest", () => {
    // parse5 nests <h1><span><h1>…: reading each heading's text afresh was quadratic, a minute for this.
    const nested = "<h1><span>".repeat(20_000)
    const page = readHtml(`<title>Fallback</title><main>${nested}</main>`, PAGE)
    expect(page.title).toBe("Fallback")
    expect(page.toMarkdown(asIs)).toBe("")
  })

  it("keeps no hold on the document tree once the page is read", async () => {
    const page = readHtml("<main><p>Hi <a href='/x'>there</a> <img src='/i.png' alt='i'></p></main>", PAGE)
    const tree = parsed.last
    expect(tree).toBeDefined()
    // A WeakRef holds what it was made for until the current turn ends.
    await new Promise((resolve) => setTimeout(resolve, 0))
    collectGarbage()
    expect(tree?.deref() === undefined).toBe(true)
    expect(page.toMarkdown(asIs)).toBe("Hi [there](https://docs.example.com/x) ![i](https://docs.example.com/i.png)\n")
  })

  it("falls back on <title> when the main content has no <h1> with text, and on nothing when neither has text", () => {
    expect(readHtml("<title> Getting\n started </title><main><h1> </h1><h2>Sub</h2></main>", PAGE).title).toBe("Getting started")
    expect(readHtml("<title> </title><p>Text</p>", PAGE).title).toBeUndefined()
  })

  it("chooses <main>, else [role=main], else the first <article>, else <body> without its chrome", () => {
    const main = readHtml("<article><p>Article</p></article><div role='main'><p>Role</p></div><main><p>Main</p></main>", PAGE)
    expect(main.toMarkdown(asIs)).toBe("Main\n")
    const role = readHtml("<article><p>Article</p></article><div role='main'><p>Role</p></div>", PAGE)
    expect(role.toMarkdown(asIs)).toBe("Role\n")
    const article = readHtml("<p>Outside</p><article><p>First</p></article><article><p>Second</p></article>", PAGE)
    expect(article.toMarkdown(asIs)).toBe("First\n")
    const body = readHtml(
      "<header><h1>Site</h1></header><nav>Menu</nav><div role='navigation'>More menu</div><p>Body text</p><aside>Ads</aside><footer>Legal</footer>",
      PAGE
    )
    expect(body.toMarkdown(asIs)).toBe("Body text\n")
    expect(body.title).toBeUndefined()
  })

  it("keeps a navigation inside the marked main content", () => {
    expect(readHtml("<main><nav><a href='#s'>Section</a></nav><h2 id='s'>Section</h2></main>", PAGE).toMarkdown(asIs))
      .toBe("[Section](https://docs.example.com/guide/start.html#s)\n\n## Section\n")
  })

  it("reads a realistic documentation page", () => {
    const html = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Getting started · Acme Docs</title>
  <link rel="stylesheet" href="/style.css">
  <script src="/app.js"></script>
</head>
<body>
  <header class="top"><a href="/"><img src="/logo.svg" alt="Acme"></a></header>
  <nav class="sidebar">
    <ul>
      <li><a href="/guide/start.html">Getting started</a></li>
      <li><a href="/guide/config.html">Configuration</a></li>
      <li><a href="/api/">API</a></li>
    </ul>
  </nav>
  <main>
    <h1>Getting started <a class="headerlink" href="#top">#</a></h1>
    <p>Acme turns <em>plain files</em> into a <strong>site</strong>. Read the
       <a href="config.html#options">configuration guide</a> next.</p>
    <p><img src="img/overview.png" alt="Overview of Acme"></p>
    <h2 id="install">Install</h2>
    <pre><code class="language-bash">npm install acme
acme init my-site
</code></pre>
    <h2>Options</h2>
    <table>
      <thead><tr><th>Option</th><th>Default</th><th>Meaning</th></tr></thead>
      <tbody>
        <tr><td><code>out</code></td><td><code>dist</code></td><td>Where pages go</td></tr>
        <tr><td><code>base</code></td><td><code>/</code></td><td>The site's path, e.g. <code>/docs</code> | root</td></tr>
      </tbody>
    </table>
    <h2>Next steps</h2>
    <ul>
      <li>Write pages
        <ul>
          <li>in <code>pages/</code></li>
          <li>with front matter</li>
        </ul>
      </li>
      <li>Publish with <a href="https://acme.example.org/deploy">the deploy tool</a></li>
    </ul>
  </main>
  <footer><a href="/privacy.html">Privacy</a> © Acme</footer>
</body>
</html>`
    const page = readHtml(html, "https://docs.example.com/guide/start.html")
    expect(page.title).toBe("Getting started")
    expect(page.links).toEqual([
      "https://docs.example.com/",
      "https://docs.example.com/guide/start.html",
      "https://docs.example.com/guide/config.html",
      "https://docs.example.com/api/",
      "https://acme.example.org/deploy",
      "https://docs.example.com/privacy.html"
    ])
    expect(page.images).toEqual(["https://docs.example.com/guide/img/overview.png"])
    const rewrite: MarkdownRewrite = {
      link: (url) => (url.startsWith("https://docs.example.com/guide/") ? `/guide/${url.slice(31).replace(".html", "")}` : url),
      image: (url) => `.gitbook/assets/${url.split("/").pop() ?? ""}`
    }
    expect(page.toMarkdown(rewrite)).toBe(
      `Acme turns *plain files* into a **site**. Read the [configuration guide](/guide/config#options) next.

![Overview of Acme](.gitbook/assets/overview.png)

## Install

\`\`\`bash
npm install acme
acme init my-site
\`\`\`

## Options

| Option | Default | Meaning                               |
| ------ | ------- | ------------------------------------- |
| \`out\`  | \`dist\`  | Where pages go                        |
| \`base\` | \`/\`     | The site's path, e.g. \`/docs\` \\| root |

## Next steps

* Write pages
  * in \`pages/\`
  * with front matter
* Publish with [the deploy tool](https://acme.example.org/deploy)
`
    )
  })

  it("survives any tag soup: markdown that reads back as written, one final newline, absolute http(s) links", () => {
    const token = fc.oneof(
      fc.constantFrom(
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<span>",
        "</span>",
        "<ul>",
        "</ul>",
        "<ol start='0'>",
        "<ol start='-4'>",
        "</ol>",
        "<li>",
        "</li>",
        "<table>",
        "</table>",
        "<tr>",
        "<td colspan='3'>",
        "<td rowspan='9999'>",
        "<th>",
        "</td>",
        "<thead>",
        "<caption>",
        "<pre>",
        "</pre>",
        "<code class='language-`x'>",
        "</code>",
        "<b>",
        "</b>",
        "<i>",
        "</em>",
        "<del>",
        "<br>",
        "<hr>",
        "<h1>",
        "</h1>",
        "<h3>",
        "<blockquote>",
        "</blockquote>",
        "<a href='x'>",
        "<a href='javascript:x'>",
        "<a href='http://[x'>",
        "</a>",
        "<img src='y.png' alt='[*]'>",
        "<img src='data:,x'>",
        "<base href='//cdn.example.com/'>",
        "<main>",
        "<article>",
        "<nav>",
        "<form>",
        "<script>",
        "</script>",
        "<svg>",
        "<template>",
        "<!--",
        "-->",
        "<![CDATA[",
        "<input type=checkbox>",
        "<title>",
        "<select>",
        "&amp;",
        "&lt;",
        "&#0;",
        "&nbsp;",
        "*",
        "_",
        "`",
        "```",
        "|",
        "#",
        "- ",
        "1. ",
        "\\",
        "!",
        "[",
        "]",
        "(",
        ")",
        "\n",
        " ",
        "\t",
        "\uE000",
        "\uE001",
        "\uE002",
        "\uE003"
      ),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: "binary", maxLength: 4 })
    )
    fc.assert(
      fc.property(fc.array(token, { maxLength: 80 }), fc.webUrl(), (tokens, url) => {
        const page = readHtml(tokens.join(""), url)
        const markdown = page.toMarkdown({ link: (u) => `${u}#r`, image: (u) => u })
        if (markdown !== "") {
          expect(markdown.endsWith("\n")).toBe(true)
          expect(markdown.endsWith("\n\n")).toBe(false)
          expect(/^\s/.test(markdown)).toBe(false)
          expect(/^---(?:\n|$)/.test(markdown)).toBe(false)
        }
        if (!markdown.includes("```")) expect(markdown).not.toMatch(/\n\s*\n\s*\n/)
        if (page.title !== undefined) {
          expect(page.title).not.toBe("")
          expect(page.title).toBe(page.title.trim().replace(/[ \t\n\r\f]+/g, " "))
        }
        for (const link of [...page.links, ...page.images]) expect(link).toMatch(/^https?:\/\/[^#]*$/)
        expect(new Set(page.links).size).toBe(page.links.length)
        expect(new Set(page.images).size).toBe(page.images.length)
        // Read back, it holds the links and images it was written with (text that looks like a URL aside), and writes the same.
        const tree = parse(markdown)
        visit(tree, (node) => {
          const text = toString(node)
          if (node.type === "link" && ![text, `http://${text}`, `mailto:${text}`].includes(node.url)) expect(node.url).toMatch(/#r$/)
          if (node.type === "image") expect(page.images).toContain(node.url)
        })
        // mdast-util-gfm reads an escaped `\@` as part of an email address all the same.
        if (!markdown.includes("@")) expect(stringify(tree)).toBe(markdown)
      }),
      { numRuns: 500 }
    )
  })
})

describe("decodeHtml", () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))

  it("reads UTF-8 by default, and a byte order mark over any label", () => {
    expect(decodeHtml(new TextEncoder().encode("<p>café ✓</p>"))).toBe("<p>café ✓</p>")
    expect(decodeHtml(Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("é")]), "iso-8859-1")).toBe("é")
  })

  it("uses the content type's charset, a bare label or a whole content type", () => {
    expect(decodeHtml(latin1("<p>caf\u00e9</p>"), "ISO-8859-1")).toBe("<p>café</p>")
    expect(decodeHtml(latin1("<p>caf\u00e9</p>"), "text/html; charset=\"latin1\"")).toBe("<p>café</p>")
  })

  it("uses a <meta charset> or <meta http-equiv> within the first 1024 bytes", () => {
    expect(decodeHtml(latin1("<!doctype html><meta charset=iso-8859-1><p>na\u00efve</p>"))).toBe(
      "<!doctype html><meta charset=iso-8859-1><p>naïve</p>"
    )
    expect(decodeHtml(latin1("<meta http-equiv='Content-Type' content='text/html; charset=windows-1252'><p>\u00e9</p>"))).toBe(
      "<meta http-equiv='Content-Type' content='text/html; charset=windows-1252'><p>é</p>"
    )
    expect(decodeHtml(latin1(`<!-- <meta charset="latin1"> --><p>\u00e9</p>`))).toBe("<!-- <meta charset=\"latin1\"> --><p>\uFFFD</p>")
    expect(decodeHtml(latin1(`${" ".repeat(1024)}<meta charset="latin1"><p>\u00e9</p>`)).endsWith("<p>\uFFFD</p>")).toBe(true)
  })

  it("prefers the content type to the page's own declaration", () => {
    expect(decodeHtml(new TextEncoder().encode("<meta charset='latin1'><p>é</p>"), "utf-8")).toBe("<meta charset='latin1'><p>é</p>")
  })

  it("falls back to UTF-8 on labels it does not know, and on a UTF-16 <meta>", () => {
    expect(decodeHtml(new TextEncoder().encode("<p>é</p>"), "no-such-charset")).toBe("<p>é</p>")
    expect(decodeHtml(new TextEncoder().encode("<meta charset='utf-16'><p>é</p>"))).toBe("<meta charset='utf-16'><p>é</p>")
    expect(decodeHtml(new TextEncoder().encode("<meta charset='x-unknown'><p>é</p>"))).toBe("<meta charset='x-unknown'><p>é</p>")
  })
})
