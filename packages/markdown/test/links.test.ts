import { describe, expect, it } from "vitest"
import { linksOf, rewriteLinks } from "../src/index.js"

const page = [
  "# Title with [a link](a.md)",
  "",
  "Text [b](<b c.md> \"title\") and ![img](i.png) and <https://auto.example> and www.literal.example.",
  "",
  "| x | [cell](cell.md) |",
  "| - | - |",
  "",
  "{% hint style=\"info\" %}",
  "In a [hint](hint.md)",
  "{% endhint %}",
  "",
  "{% tabs %}",
  "{% tab title=\"T\" %}",
  "[tab](tab.md)",
  "{% endtab %}",
  "{% endtabs %}",
  "",
  "{% content-ref url=\"ref.md\" %}",
  "[ref.md](ref.md)",
  "{% endcontent-ref %}",
  "",
  "{% embed url=\"https://youtu.be/x\" %}",
  "",
  "{% file src='/files/f1' %}",
  "",
  "<figure><img src=\"fig.png\" alt=\"Fig\"><figcaption><p>Cap</p></figcaption></figure>",
  "",
  "```md",
  "[not a link](code.md)",
  "```",
  "",
  "Inline `[no](code.md)` and [ref link][r]",
  "",
  "[r]: def.md"
].join("\n")

describe("linksOf", () => {
  it("finds every url in document order, with where it is", () => {
    const links = linksOf(page)
    expect(links.map(({ url, kind }) => [kind, url])).toEqual([
      ["link", "a.md"],
      ["link", "b c.md"],
      ["image", "i.png"],
      ["link", "https://auto.example"],
      ["link", "http://www.literal.example"],
      ["link", "cell.md"],
      ["link", "hint.md"],
      ["link", "tab.md"],
      ["content-ref", "ref.md"],
      ["link", "ref.md"],
      ["embed", "https://youtu.be/x"],
      ["file", "/files/f1"],
      ["image", "fig.png"],
      ["link", "def.md"]
    ])
    for (const link of links) {
      const source = page.slice(link.start, link.end)
      expect(link.url.endsWith(source) || source === link.url).toBe(true)
    }
  })

  it("finds nothing in code", () => {
    expect(linksOf("```\n[a](b)\n```\n\n    [c](d)\n\n`[e](f)`")).toEqual([])
  })
})

describe("rewriteLinks", () => {
  it("replaces urls in place and leaves every other byte as it was", () => {
    const rewritten = rewriteLinks(
      page,
      (link) => link.url.endsWith(".md") || link.url.endsWith(".png") ? `/pages/${link.url.replace(/\W/g, "")}` : undefined
    )
    const expected = page
      .replace("(a.md)", "(/pages/amd)")
      .replace("(<b c.md> ", "(</pages/bcmd> ")
      .replace("(i.png)", "(/pages/ipng)")
      .replace("(cell.md)", "(/pages/cellmd)")
      .replace("(hint.md)", "(/pages/hintmd)")
      .replace("(tab.md)", "(/pages/tabmd)")
      .replace("url=\"ref.md\"", "url=\"/pages/refmd\"")
      .replace("(ref.md)", "(/pages/refmd)")
      .replace("src=\"fig.png\"", "src=\"/pages/figpng\"")
      .replace("[r]: def.md", "[r]: /pages/defmd")
    expect(rewritten).toBe(expected)
  })

  it("writes urls that need it in angle brackets or escaped", () => {
    expect(rewriteLinks("[a](x) ![b](y)", (link) => (link.url === "x" ? "has space.md" : "p(1.md"))).toBe(
      "[a](<has space.md>) ![b](<p(1.md>)"
    )
    expect(rewriteLinks("[a](x)", () => "a\\b&amp;")).toBe("[a](a\\\\b\\&amp;)")
    expect(rewriteLinks("[a]()", () => "z.md")).toBe("[a](z.md)")
    expect(rewriteLinks("<https://a.example>", () => "https://b.example")).toBe("<https://b.example>")
    expect(rewriteLinks("<https://a.example>", () => "relative.md")).toBe("[https\\://a.example](relative.md)")
    expect(rewriteLinks("see https://a.example now", () => "https://b.example/x")).toBe("see https://b.example/x now")
    expect(rewriteLinks("see https://a.example now", () => "/pages/p1")).toBe("see [https\\://a.example](/pages/p1) now")
    expect(rewriteLinks("{% embed url=\"a\" %}", () => "say \"hi\"")).toBe("{% embed url=\"say %22hi%22\" %}")
    expect(rewriteLinks("<figure><img src='a.png'></figure>", () => "b's.png")).toBe("<figure><img src='b&#39;s.png'></figure>")
  })

  it("takes links out keeping their text, and images keeping their alt text", () => {
    expect(rewriteLinks("See [the **guide**](g.md) and ![a *b*](i.png).", () => null)).toBe("See the **guide** and a b.")
    expect(rewriteLinks("[![logo](l.png)](home.md)", (link) => (link.kind === "link" ? null : "m.png"))).toBe("![logo](m.png)")
    expect(rewriteLinks("<figure><img src=\"f.png\" alt=\"Fig\"><figcaption><p>C</p></figcaption></figure>\n", () => null)).toBe("Fig\n")
    expect(
      rewriteLinks(
        "{% content-ref url=\"r.md\" %}\n[Other page](r.md)\n{% endcontent-ref %}\n\nAfter",
        (link) => (link.kind === "content-ref" ? null : undefined)
      )
    )
      .toBe("Other page\n\nAfter")
    expect(rewriteLinks("{% embed url=\"https://v\" %}\nA caption\n{% endembed %}", () => null)).toBe("A caption")
  })

  it("takes a definition out with the references to it", () => {
    expect(rewriteLinks("A [x][r] and ![y][r] and [r].\n\n[r]: gone.md\nnext", (link) => (link.url === "gone.md" ? null : undefined))).toBe(
      "A x and y and r.\n\nnext"
    )
  })

  it("leaves the page as it is when nothing changes", () => {
    expect(rewriteLinks(page, (link) => link.url)).toBe(page)
    expect(rewriteLinks(page, () => undefined)).toBe(page)
  })
})

describe("links written in HTML", () => {
  const html = [
    "<p align=\"center\"><a href=\"guide.md\" class=\"button primary\">Go</a> <a href='https://example.com/a?b=1&amp;c=2'>Out</a></p>",
    "",
    "<div data-with-frame=\"true\"><figure><img src=\".gitbook/assets/a.png\" alt=\"A\"></figure></div>",
    "",
    "<table data-view=\"cards\"><tbody><tr><td><a href=\"card.md\">card.md</a></td><td><a href=.gitbook/assets/c.png>c.png</a></td></tr></tbody></table>",
    "",
    "Inline <img src=\"i.png\" alt=\"i\"> and <a href=\"in.md\">in</a>.",
    "",
    "<!-- <a href=\"commented.md\">no</a> -->",
    "",
    "<script>document.write('<a href=\"script.md\">no</a>')</script>",
    "",
    "> <div><a",
    "> href=\"split.md\">over lines</a></div>",
    ""
  ].join("\n")

  it("are found in document order with where their values sit", () => {
    const links = linksOf(html)
    expect(links.map(({ url, kind }) => [kind, url])).toEqual([
      ["link", "guide.md"],
      ["link", "https://example.com/a?b=1&c=2"],
      ["image", ".gitbook/assets/a.png"],
      ["link", "card.md"],
      ["link", ".gitbook/assets/c.png"],
      ["image", "i.png"],
      ["link", "in.md"]
    ])
    expect(links.map((link) => html.slice(link.start, link.end))).toEqual([
      "guide.md",
      "https://example.com/a?b=1&amp;c=2",
      ".gitbook/assets/a.png",
      "card.md",
      ".gitbook/assets/c.png",
      "i.png",
      "in.md"
    ])
  })

  it("are rewritten in place, quoted as they were, and read back as written when rewritten back", () => {
    const internal = linksOf(html).filter((link) => !link.url.startsWith("https:"))
    const canonical = rewriteLinks(html, (link) => {
      const index = internal.findIndex((l) => l.start === link.start)
      return index === -1 ? undefined : `/files/f${index}`
    })
    expect(canonical).toContain("<a href=\"/files/f0\" class=\"button primary\">Go</a>")
    expect(canonical).toContain("<img src=\"/files/f1\" alt=\"A\">")
    expect(canonical).toContain("<a href=/files/f3>c.png</a>")
    expect(canonical).toContain("<a href='https://example.com/a?b=1&amp;c=2'>Out</a>")
    const spelled = new Map(internal.map((link, index) => [`/files/f${index}`, link.url]))
    expect(rewriteLinks(canonical, (link) => spelled.get(link.url))).toBe(html)
  })

  it("that lead nowhere stay as written: the HTML is not cut", () => {
    expect(rewriteLinks(html, () => null)).toBe(html)
  })
})
