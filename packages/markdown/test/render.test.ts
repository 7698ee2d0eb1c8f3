import { describe, expect, it } from "vitest"
import { renderHtml, sections } from "../src/index.js"

const options = {
  link: (url: string) => (url.startsWith("/pages/") ? `/docs/${url.slice(7)}` : url.startsWith("https://") ? url : undefined),
  asset: (url: string) => (url.startsWith("/files/") ? `/f/${url.slice(7)}` : undefined)
}

describe("renderHtml", () => {
  it("escapes text and removes scripts with their content; a link that leads nowhere is its text", () => {
    const { html } = renderHtml(
      "A <script>x()</script> & \"q\" [gone](missing.md) [page](/pages/p1) [out](https://example.com/?a=1&b=2)\n",
      options
    )
    expect(html).toBe(
      "<p>A  &#x26; \"q\" gone <a href=\"/docs/p1\">page</a> <a href=\"https://example.com/?a=1&#x26;b=2\">out</a></p>"
    )
  })

  it("gives headings the search index's anchors, shifted by the offset, and lists them", () => {
    const markdown = "Intro.\n\n## Setup\n\n### Setup\n\n## Setup\n\n{% hint style=\"info\" %}\n## In a hint\n{% endhint %}\n"
    const rendered = renderHtml(markdown, { ...options, headingOffset: 1 })
    expect(rendered.headings.map((h) => h.anchor)).toEqual(sections(markdown).filter((s) => s.heading !== undefined).map((s) => s.anchor))
    expect(rendered.headings.map((h) => [h.depth, h.anchor])).toEqual([[2, "setup"], [3, "setup-1"], [2, "setup-2"], [2, "in-a-hint"]])
    expect(rendered.html).toContain("<h3 id=\"setup\">Setup<a href=\"#setup\" class=\"anchor\" aria-label=\"Link to Setup\">#</a></h3>")
    expect(rendered.html).toContain("<h4 id=\"setup-1\">")
  })

  it("renders GitBook's blocks: hints, tabs, expandables, code with its title, figures, embeds, files", () => {
    const markdown = [
      "{% hint style=\"danger\" %}\nStop.\n{% endhint %}",
      "{% tabs %}\n{% tab title=\"One\" %}\nFirst\n{% endtab %}\n{% endtabs %}",
      "<details>\n<summary>More</summary>\nHidden\n</details>",
      "```js title=\"a.js\"\nlet a = 1 < 2\n```",
      "<figure><img src=\"/files/f1\" alt=\"A diagram\"><figcaption>Caption</figcaption></figure>",
      "{% embed url=\"https://example.com/video\" %}",
      "{% file src=\"/files/f2\" %}\nThe file\n{% endfile %}"
    ].join("\n\n") + "\n"
    const { html } = renderHtml(markdown, options)
    expect(html).toContain("<div class=\"hint hint-danger\" role=\"note\"><p class=\"hint-label\">Danger</p><p>Stop.</p></div>")
    expect(html).toContain("<div class=\"tabs\"><section class=\"tab\"><p class=\"tab-title\">One</p><p>First</p></section></div>")
    expect(html).toContain("<details><summary>More</summary><p>Hidden</p></details>")
    expect(html).toContain(
      "<div class=\"code-block\"><div class=\"code-title\">a.js</div><pre><code class=\"language-js\">let a = 1 &#x3C; 2\n</code></pre></div>"
    )
    expect(html).toContain("<figure><img src=\"/f/f1\" alt=\"A diagram\" loading=\"lazy\"><figcaption>Caption</figcaption></figure>")
    expect(html).toContain("<p class=\"embed\"><a href=\"https://example.com/video\">https://example.com/video</a></p>")
    expect(html).toContain("<p class=\"file\"><a href=\"/f/f2\">The file</a></p>")
  })

  it("lays math out as MathML; TeX it cannot read stays as its source", () => {
    const { html } = renderHtml("Inline $$a^2$$.\n\n$$\n\\frac{1}{x}\n$$\n\nBad $$\\frac{$$.\n", options)
    expect(html).toContain("<span class=\"math\"><span class=\"katex\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\">")
    expect(html).toContain("<mfrac><mn>1</mn><mi>x</mi></mfrac>")
    expect(html).toContain("<span class=\"math\"><code>\\frac{</code></span>")
  })
})
