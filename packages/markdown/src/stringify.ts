import type { Code, List, Root } from "mdast"
import { frontmatterToMarkdown } from "mdast-util-frontmatter"
import { gfmToMarkdown } from "mdast-util-gfm"
import { mathToMarkdown } from "mdast-util-math"
import type { Handle, Options } from "mdast-util-to-markdown"
import { defaultHandlers, toMarkdown } from "mdast-util-to-markdown"
import type { Column, Columns, ContentRef, Embed, Expandable, FileBlock, Figure, Hint, Include, Step, Stepper, Tab, Tabs } from "./nodes.js"
import { figureHtml, summaryHtml, tagUrl, tagValue } from "./tags.js"

/** A tag block: the opening line, the content (if any) and the closing line. */
const block = (open: string, body: string, close: string) => body === "" ? `${open}\n${close}` : `${open}\n${body}\n${close}`

const hint: Handle = (node: Hint, _, state, info) =>
  block(`{% hint style="${node.style}" %}`, state.containerFlow(node, info), "{% endhint %}")

const tabs: Handle = (node: Tabs, _, state, info) => block("{% tabs %}", state.containerFlow(node, info), "{% endtabs %}")

const tab: Handle = (node: Tab, _, state, info) =>
  block(`{% tab title=${tagValue(node.title)} %}`, state.containerFlow(node, info), "{% endtab %}")

const stepper: Handle = (node: Stepper, _, state, info) => block("{% stepper %}", state.containerFlow(node, info), "{% endstepper %}")

const step: Handle = (node: Step, _, state, info) => block("{% step %}", state.containerFlow(node, info), "{% endstep %}")

const columns: Handle = (node: Columns, _, state, info) => block("{% columns %}", state.containerFlow(node, info), "{% endcolumns %}")

const column: Handle = (node: Column, _, state, info) =>
  block(
    node.width === undefined ? "{% column %}" : `{% column width=${tagValue(node.width)} %}`,
    state.containerFlow(node, info),
    "{% endcolumn %}"
  )

// An embed or a file stands alone unless it has a caption.
const embed: Handle = (node: Embed, _, state, info) => {
  const open = `{% embed url=${tagUrl(node.url)} %}`
  return node.children.length === 0 ? open : block(open, state.containerFlow(node, info), "{% endembed %}")
}

const file: Handle = (node: FileBlock, _, state, info) => {
  const open = `{% file src=${tagUrl(node.url)} %}`
  return node.children.length === 0 ? open : block(open, state.containerFlow(node, info), "{% endfile %}")
}

// GitBook writes the link to the referenced page inside the tag; one is made up when missing.
const contentRef: Handle = (node: ContentRef, _, state, info) => {
  const children: ContentRef["children"] = node.children.length > 0
    ? node.children
    : [{ type: "paragraph", children: [{ type: "link", url: node.url, children: [{ type: "text", value: node.url }] }] }]
  return block(`{% content-ref url=${tagUrl(node.url)} %}`, state.containerFlow({ ...node, children }, info), "{% endcontent-ref %}")
}

const include: Handle = (node: Include) => `{% include ${tagValue(node.path)} %}`

const expandable: Handle = (node: Expandable, _, state, info) => {
  const body = state.containerFlow(node, info)
  const open = `${node.open ? "<details open>" : "<details>"}\n\n${summaryHtml(node.title)}`
  return body === "" ? `${open}\n\n</details>` : `${open}\n\n${body}\n\n</details>`
}

const figure: Handle = (node: Figure) => figureHtml(node.url, node.alt, node.caption, node.width)

// A code block with a title, an overflow or line numbers is wrapped in `{% code %}`.
const code: Handle = (node: Code, parent, state, info) => {
  const fence = defaultHandlers.code(node, parent, state, info)
  const data = node.data
  if (data?.title === undefined && data?.overflow === undefined && data?.lineNumbers === undefined) return fence
  const attributes = [
    data.title !== undefined ? `title=${tagValue(data.title)}` : "",
    data.overflow !== undefined ? `overflow="${data.overflow}"` : "",
    data.lineNumbers !== undefined ? `lineNumbers="${data.lineNumbers}"` : ""
  ].filter((part) => part !== "")
  return block(`{% code ${attributes.join(" ")} %}`, fence, "{% endcode %}")
}

/** The bullet lists take, the one a list right after another takes, and the thematic break's marker. */
const BULLET = "*"
const BULLET_OTHER = "-"
const RULE = "*"

/**
 * A bullet list, as the library writes it but for one case. A list right after one written with `-`
 * takes `*`; but when one of its items starts with a thematic break, the library takes `-` again (so
 * that `* ***` does not read as one big break), and the two lists read back as one. Such a list keeps
 * `*` and writes its items' breaks with `-` (`* ---` is an item holding a break). Every other list
 * writes breaks with `*`.
 */
const list: Handle = (node: List, parent, state, info) => {
  const rule = state.options.rule
  const startsWithBreak = node.children.some((item) => item.children[0]?.type === "thematicBreak")
  // The other marker than the bullet this list keeps, so that its items' breaks read as breaks.
  state.options.rule = !node.ordered && state.bulletLastUsed === BULLET_OTHER && startsWithBreak ? BULLET_OTHER : RULE
  try {
    return defaultHandlers.list(node, parent, state, info)
  } finally {
    state.options.rule = rule
  }
}

const options: Options = {
  bullet: BULLET,
  bulletOther: BULLET_OTHER,
  emphasis: "*",
  strong: "*",
  rule: RULE,
  fences: true,
  listItemIndent: "one",
  extensions: [gfmToMarkdown(), frontmatterToMarkdown(["yaml"]), mathToMarkdown({ singleDollarTextMath: false })],
  handlers: { hint, tabs, tab, stepper, step, columns, column, embed, file, contentRef, include, expandable, figure, code, list },
  // Text that would read as a tag line is escaped: `\{% … %}`; so are dollars next to dollars, which
  // would read as math (or spoil the `$$` of math next to them).
  unsafe: [
    { character: "{", after: "%", atBreak: true },
    { character: "$", after: "\\$", inConstruct: "phrasing" },
    { character: "$", before: "\\$", inConstruct: "phrasing" }
  ]
}

/** Mdast (with GitBook's nodes) as GitBook markdown: `*` bullets, fenced code, `{% … %}` tags. */
export const stringify = (root: Root): string => toMarkdown(root, options)
