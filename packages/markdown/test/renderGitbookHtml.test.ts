import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { parse, renderHtml, stringify } from "../src/index.js"

// The HTML GitBook's editor writes inside markdown (issue 40), rendered for readers.

const options = {
  link: (url: string) =>
    url.startsWith("/pages/") || url.endsWith(".md")
      ? `/docs/${url.replace(/^\/pages\//, "")}`
      : url.startsWith("https://")
      ? url
      : undefined,
  asset: (url: string) =>
    url.startsWith("/files/") ? `/f/${url.slice(7)}` : url.startsWith(".gitbook/assets/") ? `/f/${url.slice(16)}` : undefined
}

const render = (markdown: string) => renderHtml(markdown, options).html

const fixture = readFileSync(new URL("./fixtures/gitbook-html.md", import.meta.url), "utf8")

describe("renderHtml of GitBook's HTML", () => {
  it("shows framed figures and figures with their image, pointed like markdown images, and their caption", () => {
    expect(render(
      "<div data-with-frame=\"true\"><figure><img src=\".gitbook/assets/a.png\" alt=\"A\"><figcaption><p>Seen from the hill.</p></figcaption></figure></div>\n"
    )).toBe(
      "<div data-with-frame=\"true\"><figure><img src=\"/f/a.png\" alt=\"A\" loading=\"lazy\"><figcaption><p>Seen from the hill.</p></figcaption></figure></div>"
    )
    expect(render("<figure><img src=\"/files/f1\" alt=\"B\" width=\"240\"><figcaption><p>Small</p></figcaption></figure>\n")).toBe(
      "<figure><img src=\"/f/f1\" alt=\"B\" width=\"240\" loading=\"lazy\"><figcaption>Small</figcaption></figure>"
    )
    expect(render("<div align=\"center\"><figure><img src=\"/files/f1\" alt=\"\" data-size=\"original\"></figure></div>\n")).toBe(
      "<div align=\"center\"><figure><img src=\"/f/f1\" alt=\"\" data-size=\"original\" loading=\"lazy\"></figure></div>"
    )
  })

  it("shows raw images inline and in tables; an image whose file is not in the space is left out, its sentence kept", () => {
    expect(render("A <img src=\"/files/f2\" alt=\"badge\" data-size=\"line\"> here and <img src=\"gone.png\" alt=\"x\"> there.\n")).toBe(
      "<p>A <img src=\"/f/f2\" alt=\"badge\" data-size=\"line\" loading=\"lazy\"> here and  there.</p>"
    )
    expect(render("<table><tbody><tr><td><img src=\"/files/f3\" alt=\"c\"></td></tr></tbody></table>\n")).toContain(
      "<td><img src=\"/f/f3\" alt=\"c\" loading=\"lazy\"></td>"
    )
  })

  it("shows HTML tables with their cells, column widths, GitBook's attributes and the markdown written in cells", () => {
    const html = render(
      "<table data-header-hidden data-full-width=\"true\"><colgroup><col width=\"120\"><col></colgroup><thead><tr><th></th><th></th></tr></thead>" +
        "<tbody><tr><td>**Name**</td><td>See [the guide](guide.md) and `run`.</td></tr><tr><td><code>a*b*c</code></td><td>Two</td></tr></tbody></table>\n"
    )
    expect(html).toBe(
      "<table data-header-hidden=\"\" data-full-width=\"true\"><colgroup><col width=\"120\"><col></colgroup><thead><tr><th></th><th></th></tr></thead>" +
        "<tbody><tr><td><strong>Name</strong></td><td>See <a href=\"/docs/guide.md\">the guide</a> and <code>run</code>.</td></tr>" +
        "<tr><td><code>a*b*c</code></td><td>Two</td></tr></tbody></table>"
    )
  })

  it("shows a cards table as a grid of cards, each a link to its target with its cover; hidden columns are not shown", () => {
    const html = render(
      "<table data-view=\"cards\" data-card-size=\"large\"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type=\"content-ref\"></th>" +
        "<th data-hidden data-card-cover data-type=\"files\"></th><th data-hidden>Notes</th></tr></thead><tbody>" +
        "<tr><td><strong>One</strong></td><td>First <a href=\"other.md\">card</a>.</td><td><a href=\"one.md\">one.md</a></td>" +
        "<td><a href=\".gitbook/assets/one.png\">one.png</a></td><td>secret</td></tr>" +
        "<tr><td><strong>Two</strong></td><td>Second.</td><td><a href=\"https://example.com/two\">https://example.com/two</a></td><td></td><td></td></tr>" +
        "<tr><td><strong>Three</strong></td><td>Third, nowhere.</td><td><a href=\"missing\">missing</a></td><td></td><td></td></tr>" +
        "</tbody></table>\n"
    )
    expect(html).toBe(
      "<div class=\"cards cards-large\">" +
        "<a href=\"/docs/one.md\" class=\"card\"><img src=\"/f/one.png\" alt=\"\" class=\"card-cover\" loading=\"lazy\"><div class=\"card-body\">" +
        "<div class=\"card-text\"><strong>One</strong></div><div class=\"card-text\">First card.</div></div></a>" +
        "<a href=\"https://example.com/two\" class=\"card\"><div class=\"card-body\"><div class=\"card-text\"><strong>Two</strong></div>" +
        "<div class=\"card-text\">Second.</div></div></a>" +
        "<div class=\"card\"><div class=\"card-body\"><div class=\"card-text\"><strong>Three</strong></div>" +
        "<div class=\"card-text\">Third, nowhere.</div></div></div>" +
        "</div>"
    )
  })

  it("shows Font Awesome icons as inline SVG; an icon the free sets lack shows nothing; <i> without one stays italics", () => {
    const html = render(
      "Go <i class=\"fa-rocket\"></i> <i class=\"fa-solid fa-star\"></i> <i class=\"fab fa-github\"></i> <i class=\"fa-regular fa-heart\"></i> " +
        "<i class=\"fa-no-such-icon\"></i> <i>words</i>\n"
    )
    const svgs = [
      ...html.matchAll(
        /<svg class="icon" viewBox="0 0 (\d+) 512" aria-hidden="true" focusable="false" fill="currentColor"><path d="M[^"]+"><\/path><\/svg>/g
      )
    ]
    expect(svgs.length).toBe(4)
    expect(html).not.toContain("fa-")
    expect(html).toContain(" <i>words</i>")
  })

  it("shows button links as styled links with their label; one that leads nowhere keeps its label", () => {
    expect(
      render("<a href=\"start.md\" class=\"button primary\">Get started</a> <a href=\"nowhere\" class=\"button secondary\">Later</a>\n")
    )
      .toBe("<p><a href=\"/docs/start.md\" class=\"button primary\">Get started</a> <span class=\"button secondary\">Later</span></p>")
  })

  it("aligns headings and paragraphs written in HTML; their headings have anchors and are in the outline", () => {
    const rendered = renderHtml("<h2 align=\"center\">Welcome home</h2>\n\n<p align=\"center\">Centred words.</p>\n\n## Next\n", {
      ...options,
      headingOffset: 1
    })
    expect(rendered.html).toBe(
      "<h3 id=\"welcome-home\" align=\"center\">Welcome home<a href=\"#welcome-home\" class=\"anchor\" aria-label=\"Link to Welcome home\">#</a></h3>\n" +
        "<p align=\"center\">Centred words.</p>\n" +
        "<h3 id=\"next\">Next<a href=\"#next\" class=\"anchor\" aria-label=\"Link to Next\">#</a></h3>"
    )
    expect(rendered.headings).toEqual([{ depth: 2, text: "Welcome home", anchor: "welcome-home" }, {
      depth: 2,
      text: "Next",
      anchor: "next"
    }])
  })

  it("cleans other HTML by an allowlist: scripts, styles, handlers and javascript: URLs go, text stays", () => {
    const html = render(
      "<div onclick=\"steal()\" style=\"color:red\" class=\"box\">Kept <b>bold</b> <iframe src=\"https://evil.example\"></iframe></div>\n\n" +
        "<style>body { display: none }</style>\n\n<script>steal()</script>\n\n" +
        "Click <a href=\"javascript:steal()\">here</a> or <img src=\"javascript:steal()\" onerror=\"steal()\" alt=\"x\"> <custom-tag>custom words</custom-tag>.\n"
    )
    expect(html).toBe("<div class=\"box\">Kept <b>bold</b> </div>\n\n\n<p>Click <a>here</a> or  custom words.</p>")
  })

  it("lets an element opened in one HTML block hold the markdown up to its closing block", () => {
    expect(render("<div align=\"center\">\n\n**Bold** words.\n\n</div>\n")).toBe(
      "<div align=\"center\">\n<p><strong>Bold</strong> words.</p>\n</div>"
    )
  })

  it("shows markup nested past what it reads safely as its text", () => {
    const html = render(`${"<div>".repeat(5_000)}deep words${"</div>".repeat(5_000)}\n`)
    expect(html).toBe("deep words")
  })
})

describe("the fixture of every construct", () => {
  it("reads back as it was written", () => {
    expect(stringify(parse(fixture))).toBe(fixture)
  })
})
