// fast-check generators of GitBook documents in the form `toDocument` writes them, covering every
// block type it writes, nested as GitBook's schema allows.
import fc from "fast-check"
import type {
  DocumentBlock,
  DocumentContentRef,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentText,
  MarkType
} from "../src/index.js"

type Where = "document" | "hint" | "quote" | "item" | "tab" | "expandable" | "step" | "column"

const marks: ReadonlyArray<MarkType> = ["bold", "italic", "strikethrough", "code"]

// Words with the characters markdown gives a meaning to, so that escaping is exercised.
const word = fc.array(fc.constantFrom(..."abcdefxyz0123456789*_[]()#<>!|~$&{}%`\\.:+-=\"'"), { minLength: 1, maxLength: 6 }).map((cs) =>
  cs.join("")
)
// GFM reads `\|` in a table cell as `|`, even in code: a backslash before a pipe cannot be written there.
const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(" ")).filter((ws) => !ws.includes("\\|"))
const id = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/)
const plainWords = fc.array(fc.stringMatching(/^[A-Za-z0-9]{1,6}$/), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(" "))

const leaf = (text: string, on: ReadonlyArray<MarkType>): DocumentLeaf => ({
  object: "leaf",
  text,
  marks: marks.filter((mark) => on.includes(mark)).map((type) => ({ object: "mark", type }))
})

/** Leaves merged where their marks are the same, as `toDocument` writes them. */
const mergeLeaves = (leaves: ReadonlyArray<DocumentLeaf>): Array<DocumentLeaf> => {
  const out: Array<DocumentLeaf> = []
  for (const next of leaves) {
    const last = out[out.length - 1]
    if (last !== undefined && JSON.stringify(last.marks) === JSON.stringify(next.marks))
      out[out.length - 1] = { ...last, text: last.text + next.text }
    else out.push(next)
  }
  return out
}

const text = (leaves: ReadonlyArray<DocumentLeaf>): DocumentText => ({ object: "text", leaves: mergeLeaves(leaves) })

/** Runs of words, each with its marks, separated by unmarked blanks. */
const runs = fc.array(fc.record({ text: words, marks: fc.subarray([...marks]) }), { minLength: 1, maxLength: 3 }).map((segments) =>
  segments.flatMap((segment, index) =>
    index === 0 ? [leaf(segment.text, segment.marks)] : [leaf(" ", []), leaf(segment.text, segment.marks)]
  )
)

const ref: fc.Arbitrary<DocumentContentRef> = fc.oneof(
  fc.stringMatching(/^[a-z0-9]{1,8}$/).map((path) => ({ kind: "url" as const, url: `https://example.com/${path}` })),
  fc.stringMatching(/^[a-z0-9]{1,8}(\.md)?$/).map((path) => ({ kind: "url" as const, url: path })),
  id.map((page) => ({ kind: "page" as const, page })),
  fc.record({ anchor: fc.stringMatching(/^[a-z0-9-]{1,8}$/), page: id }),
  fc.stringMatching(/^[a-z0-9-]{1,8}$/).map((anchor) => ({ kind: "anchor" as const, anchor })),
  id.map((file) => ({ kind: "file" as const, file }))
).map((value) => ("kind" in value ? value : { kind: "anchor" as const, ...value }))

const imageRef = fc.oneof(
  fc.stringMatching(/^[a-z0-9]{1,8}$/).map((name) => ({ kind: "url" as const, url: `https://example.com/${name}.png` })),
  id.map((file) => ({ kind: "file" as const, file }))
)

const link = fc.record({ ref, leaves: runs }).map(({ ref, leaves }): DocumentInline => ({
  object: "inline",
  type: "link",
  data: { ref },
  nodes: [text(leaves.map((each) => ({ ...each, marks: each.marks.filter((mark) => mark.type !== "code" || each.text !== " ") })))]
}))
const math = fc.stringMatching(/^[a-z0-9^+=]{1,8}$/).map((formula): DocumentInline => ({
  object: "inline",
  type: "inline-math",
  isVoid: true,
  data: { formula }
}))
const inlineImage = fc.record({ ref: imageRef, alt: fc.option(plainWords, { nil: undefined }) }).map(({ ref, alt }): DocumentInline => ({
  object: "inline",
  type: "inline-image",
  isVoid: true,
  data: { ref, ...(alt !== undefined ? { alt } : {}) }
}))

/** Inline content: always text first, then inlines each followed by more text. */
const inlines = fc.tuple(runs, fc.array(fc.tuple(fc.oneof(link, math, inlineImage), runs), { maxLength: 2 })).map(([first, rest]) => [
  text(first),
  ...rest.flatMap(([inline, after]) => [inline, text([leaf(" ", []), ...after])])
])

const block = (type: string, nodes: ReadonlyArray<unknown>, data: Readonly<Record<string, unknown>> = {}): DocumentBlock => ({
  object: "block",
  type,
  isVoid: false,
  data,
  nodes: nodes as DocumentBlock["nodes"]
})
const voidBlock = (type: string, data: Readonly<Record<string, unknown>>, fragments?: ReadonlyArray<DocumentFragment>): DocumentBlock => ({
  object: "block",
  type,
  isVoid: true,
  data,
  ...(fragments !== undefined ? { fragments } : {})
})

const paragraph = inlines.map((nodes) => block("paragraph", nodes))
const heading = fc.tuple(fc.constantFrom(1, 2, 3), inlines).map(([depth, nodes]) => block(`heading-${depth}`, nodes))
const divider = fc.constant(voidBlock("divider", {}))
const codeLine = fc.array(fc.constantFrom(..."abc xyz`~{}%<>*#-|\\\t"), { maxLength: 10 }).map((cs) => cs.join(""))
const code = fc.record({
  syntax: fc.option(fc.stringMatching(/^[a-z]{1,5}$/), { nil: undefined }),
  title: fc.option(words, { nil: undefined }),
  overflow: fc.option(fc.constantFrom("wrap", "scroll"), { nil: undefined }),
  lineNumbers: fc.option(fc.boolean(), { nil: undefined }),
  lines: fc.array(codeLine, { minLength: 1, maxLength: 3 })
}).map(({ lines, ...data }) =>
  block(
    "code",
    lines.map((line) => block("code-line", [text([leaf(line, [])])])),
    Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined))
  )
)
const mathBlock = fc.stringMatching(/^[a-z0-9^+= \\{}]{1,12}$/).filter((formula) => formula.trim() === formula).map((formula) =>
  voidBlock("math", { formula })
)
const caption = (
  value: string
): Array<DocumentFragment> => [{ object: "fragment", fragment: "caption", nodes: [block("paragraph", [text([leaf(value, [])])])] }]
const image = (ref: DocumentContentRef, alt: string | undefined, captionText: string | undefined) =>
  voidBlock("image", { ref, ...(alt !== undefined ? { alt } : {}) }, captionText === undefined ? [] : caption(captionText))
const images = fc.oneof(
  fc.record({ ref: imageRef, alt: fc.option(plainWords, { nil: undefined }), caption: plainWords }).map((one) =>
    block("images", [image(one.ref, one.alt, one.caption)])
  ),
  fc.array(fc.record({ ref: imageRef, alt: fc.option(plainWords, { nil: undefined }) }), { minLength: 1, maxLength: 3 }).map((all) =>
    block("images", all.map((one) => image(one.ref, one.alt, undefined)))
  )
)
const file = id.map((file) => voidBlock("file", { ref: { kind: "file", file } }))
const embed = fc.stringMatching(/^[a-z0-9]{1,8}$/).map((path) => voidBlock("embed", { url: `https://www.youtube.com/watch?v=${path}` }))
const contentRef = ref.map((ref) => voidBlock("content-ref", { ref }))

const table = fc.integer({ min: 1, max: 3 }).chain((width) =>
  fc.record({
    columns: fc.array(fc.record({ title: plainWords, align: fc.constantFrom("left", "center", "right") }), {
      minLength: width,
      maxLength: width
    }),
    rows: fc.array(fc.array(inlines, { minLength: width, maxLength: width }), { maxLength: 3 })
  })
).map(({ columns, rows }): DocumentBlock => {
  const ids = columns.map((_, index) => `c${index}`)
  const definition = Object.fromEntries(
    columns.map((column, index) => [`c${index}`, { id: `c${index}`, title: column.title, type: "text", textAlignment: column.align }])
  )
  const width = String(Math.max(rows.length - 1, 0)).length
  const records = Object.fromEntries(
    rows.map((
      _,
      index
    ) => [`r${index}`, {
      orderIndex: String(index).padStart(width, "0"),
      values: Object.fromEntries(ids.map((column) => [column, `r${index}-${column}`]))
    }])
  )
  const fragments: Array<DocumentFragment> = rows.flatMap((row, index) =>
    row.map((cell, at) => ({ object: "fragment" as const, fragment: `r${index}-c${at}`, nodes: [block("paragraph", cell)] }))
  )
  return {
    object: "block",
    type: "table",
    isVoid: true,
    data: { view: { type: "grid", columns: ids, hideHeader: false }, records, definition },
    fragments
  }
})

/** Blocks that a place may hold, `depth` levels of containers deep at most. */
const blocksIn = (where: Where, depth: number): fc.Arbitrary<DocumentBlock> => {
  const essentials: Array<fc.Arbitrary<DocumentBlock>> = [paragraph, heading, divider]
  const nested = (inner: Where, min = 1) => fc.array(blocksIn(inner, depth - 1), { minLength: min, maxLength: 2 })
  if (depth > 0) {
    const item = fc.tuple(paragraph, fc.array(blocksIn("item", depth - 1), { maxLength: 1 })).map(([first, rest]) => [first, ...rest])
    essentials.push(
      fc.tuple(fc.integer({ min: 1, max: 5 }), fc.array(item, { minLength: 1, maxLength: 3 })).map(([start, items]) =>
        block("list-ordered", items.map((nodes) => block("list-item", nodes)), start === 1 ? {} : { start })
      ),
      fc.array(item, { minLength: 1, maxLength: 3 }).map((items) =>
        block("list-unordered", items.map((nodes) => block("list-item", nodes)))
      ),
      fc.array(fc.tuple(fc.boolean(), item), { minLength: 1, maxLength: 3 }).map((items) =>
        block("list-tasks", items.map(([checked, nodes]) => block("list-item", nodes, { checked })))
      )
    )
  }
  const more: Partial<Record<string, fc.Arbitrary<DocumentBlock>>> = {
    code,
    math: mathBlock,
    images,
    file,
    embed,
    "content-ref": contentRef,
    table,
    ...(depth > 0
      ? {
        blockquote: nested("quote").map((nodes) => block("blockquote", nodes)),
        hint: fc.tuple(fc.constantFrom("info", "warning", "danger", "success"), nested("hint")).map(([style, nodes]) =>
          block("hint", nodes, { style })
        ),
        tabs: fc.array(fc.tuple(plainWords, nested("tab", 0)), { minLength: 1, maxLength: 2 }).map((tabs) =>
          block("tabs", tabs.map(([title, nodes]) => block("tabs-item", nodes, { title })))
        ),
        stepper: fc.array(nested("step"), { minLength: 1, maxLength: 3 }).map((steps) =>
          block("stepper", steps.map((nodes) => block("stepper-step", nodes)))
        ),
        columns: fc.array(fc.tuple(fc.option(fc.integer({ min: 10, max: 90 }), { nil: undefined }), nested("column")), {
          minLength: 1,
          maxLength: 3
        }).map((columns) =>
          block(
            "columns",
            columns.map(([width, nodes]) => block("column", nodes, width === undefined ? {} : { width: { value: width, unit: "%" } }))
          )
        ),
        expandable: fc.tuple(plainWords, fc.boolean(), nested("expandable")).map(([title, open, nodes]) =>
          voidBlock("expandable", open ? { defaultExpanded: true } : {}, [
            {
              object: "fragment",
              fragment: "expandable-title",
              type: "expandable-title",
              nodes: [block("paragraph", [text([leaf(title, [])])])]
            },
            { object: "fragment", fragment: "expandable-body", type: "expandable-body", nodes }
          ])
        )
      }
      : {})
  }
  const holds: Record<Where, ReadonlyArray<string>> = {
    document: [
      "blockquote",
      "hint",
      "images",
      "file",
      "embed",
      "code",
      "math",
      "expandable",
      "tabs",
      "table",
      "content-ref",
      "stepper",
      "columns"
    ],
    hint: ["embed", "table"],
    quote: ["blockquote"],
    item: ["code", "hint", "blockquote", "math", "table"],
    tab: ["content-ref", "code", "embed", "file", "images", "hint", "blockquote", "math"],
    expandable: ["file", "images", "code", "table", "hint", "blockquote"],
    step: ["content-ref", "code", "embed", "file", "images", "hint", "blockquote", "math", "expandable"],
    column: ["images", "code", "hint", "content-ref", "embed", "file", "math", "blockquote", "table", "expandable", "stepper"]
  }
  const extra = holds[where].flatMap((type) => more[type] ?? [])
  return fc.oneof(...essentials, ...extra)
}

export const documents = fc.array(blocksIn("document", 2), { minLength: 1, maxLength: 4 }).map((nodes) => ({
  object: "document" as const,
  data: {},
  nodes
}))

/** One block of each type at the top of a document. */
export const topLevelTypes = [
  "paragraph",
  "heading-1",
  "list-ordered",
  "list-unordered",
  "list-tasks",
  "divider",
  "blockquote",
  "hint",
  "images",
  "file",
  "embed",
  "code",
  "math",
  "expandable",
  "tabs",
  "table",
  "content-ref",
  "stepper",
  "columns"
]
export const blockOfType = (type: string): fc.Arbitrary<DocumentBlock> =>
  blocksIn("document", 2).filter((each) => each.type === type || (type === "heading-1" && each.type.startsWith("heading-")))

// Markdown soup: lines of every construct GitBook pages use (and some they should not), in any order,
// some indented or quoted, so that constructs meet in unplanned ways.
const lines = [
  "# Heading",
  "## Sub *heading*",
  "#### Deep",
  "Setext",
  "===",
  "text with **bold**, *italic*, ~~strike~~, `code` and [a link](https://example.com/a)",
  "[page](/pages/p1#part) and [file](/files/f1) and [anchor](#x) and <https://auto.link> and www.example.com",
  "![image](/files/i1) ![other](https://example.com/i.png \"title\")",
  "[f1](/files/f1)",
  "* item",
  "- other item",
  "1. first",
  "3) third",
  "* [ ] task",
  "* [x] done",
  "> quote",
  "```",
  "```js title=\"a.js\"",
  "~~~",
  "    indented code",
  "$$",
  "x^2 + $$y$$",
  "| a | b |",
  "| - | :-: |",
  "| 1 | `|` |",
  "***",
  "---",
  "",
  "",
  "{% hint style=\"info\" %}",
  "{% hint style=\"nope\" %}",
  "{% endhint %}",
  "{% tabs %}",
  "{% tab title=\"One\" %}",
  "{% endtab %}",
  "{% endtabs %}",
  "{% code title=\"c.sh\" overflow=\"wrap\" %}",
  "{% endcode %}",
  "{% embed url=\"https://youtu.be/x\" %}",
  "{% endembed %}",
  "{% content-ref url=\"other.md\" %}",
  "{% endcontent-ref %}",
  "{% file src=\"/files/f2\" %}",
  "{% include \"../.gitbook/includes/x.md\" %}",
  "{% stepper %}",
  "{% step %}",
  "{% endstep %}",
  "{% endstepper %}",
  "{% columns %}",
  "{% column width=\"50%\" %}",
  "{% column %}",
  "{% endcolumn %}",
  "{% endcolumns %}",
  "<details>",
  "<details open>",
  "<summary>Summary</summary>",
  "</details>",
  "<figure><img src=\"/files/i2\" alt=\"fig\"><figcaption><p>Caption</p></figcaption></figure>",
  "<div align=\"center\">",
  "</div>",
  "<!-- comment -->",
  "a<br>b <kbd>Ctrl</kbd>",
  "[ref]: https://example.com/ref",
  "[x][ref] and ![y][ref]",
  "text[^1]",
  "[^1]: a footnote",
  "\\{% escaped %}",
  "&amp; &copy; entities",
  "trailing spaces  ",
  "tab\tinside"
]
const prefixes = ["", "", "", "  ", "   ", "> ", "* ", "1. ", "    "]
export const markdownSoup = fc.array(fc.tuple(fc.constantFrom(...prefixes), fc.constantFrom(...lines)), { maxLength: 25 }).map((pairs) =>
  pairs.map(([prefix, line]) => prefix + line).join("\n")
)
