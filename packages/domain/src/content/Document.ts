/**
 * The `document` format of a page: its markdown as a JSON tree of blocks and inline leaves.
 * Covers what pages use most: headings, paragraphs, lists, code blocks, quotes, rules, tables,
 * images, links and inline code/bold/italic.
 */
export type Inline =
  | {
    readonly object: "text"
    readonly leaves: ReadonlyArray<{ readonly text: string; readonly marks: ReadonlyArray<{ readonly type: string }> }>
  }
  | {
    readonly object: "inline"
    readonly type: "link"
    readonly data: { readonly ref: { readonly kind: "url"; readonly url: string } }
    readonly nodes: ReadonlyArray<Inline>
  }

export type Block = {
  readonly object: "block"
  readonly type: string
  readonly data?: Readonly<Record<string, unknown>>
  readonly nodes: ReadonlyArray<Block | Inline>
}

export interface Document {
  readonly object: "document"
  readonly data: Readonly<Record<string, never>>
  readonly nodes: ReadonlyArray<Block>
}

const text = (value: string, marks: ReadonlyArray<string> = []): Inline => ({
  object: "text",
  leaves: [{ text: value, marks: marks.map((type) => ({ type })) }]
})

/** Inline markdown: links, images (as links to the image), `code`, **bold** and *italic*. */
export const parseInline = (source: string): ReadonlyArray<Inline> => {
  const nodes: Array<Inline> = []
  const pattern = /!?\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|_([^_]+)_/g
  let last = 0
  for (const match of source.matchAll(pattern)) {
    const index = match.index ?? 0
    if (index > last) nodes.push(text(source.slice(last, index)))
    const [, label, url, code, bold, italic, underscored] = match
    if (url !== undefined) {
      nodes.push({ object: "inline", type: "link", data: { ref: { kind: "url", url } }, nodes: [text(label ?? "")] })
    } else if (code !== undefined) nodes.push(text(code, ["code"]))
    else if (bold !== undefined) nodes.push(text(bold, ["bold"]))
    else nodes.push(text(italic ?? underscored ?? "", ["italic"]))
    last = index + match[0].length
  }
  if (last < source.length) nodes.push(text(source.slice(last)))
  return nodes.length === 0 ? [text("")] : nodes
}

const block = (type: string, nodes: ReadonlyArray<Block | Inline>, data?: Readonly<Record<string, unknown>>): Block =>
  data === undefined ? { object: "block", type, nodes } : { object: "block", type, data, nodes }

const cells = (row: string) => row.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim())

export const markdownToDocument = (markdown: string): Document => {
  const lines = markdown.replace(/\r\n/g, "\n").split("\n")
  const nodes: Array<Block> = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i] ?? ""
    if (line.trim() === "") {
      i++
      continue
    }
    const fence = /^```\s*([\w-]*)\s*$/.exec(line)
    if (fence !== null) {
      const body: Array<string> = []
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ""); i++) body.push(lines[i] ?? "")
      i++
      nodes.push(block("code", body.map((l) => block("code-line", [text(l)])), fence[1] ? { syntax: fence[1] } : {}))
      continue
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading !== null) {
      const level = heading[1]!.length
      nodes.push(block(level === 1 ? "heading-1" : level === 2 ? "heading-2" : "heading-3", parseInline(heading[2] ?? "")))
      i++
      continue
    }
    if (/^(\*\s*){3,}$|^(-\s*){3,}$|^(_\s*){3,}$/.test(line.trim())) {
      nodes.push(block("divider", []))
      i++
      continue
    }
    if (/^\s*\|.*\|\s*$/.test(line) && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1] ?? "")) {
      const header = cells(line)
      const rows: Array<Array<string>> = []
      for (i += 2; i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i] ?? ""); i++) rows.push(cells(lines[i] ?? ""))
      nodes.push(
        block("table", [header, ...rows].map((row) => block("table-row", row.map((cell) => block("table-cell", parseInline(cell))))))
      )
      continue
    }
    if (/^>\s?/.test(line)) {
      const quoted: Array<string> = []
      for (; i < lines.length && /^>\s?/.test(lines[i] ?? ""); i++) quoted.push((lines[i] ?? "").replace(/^>\s?/, ""))
      nodes.push(block("blockquote", markdownToDocument(quoted.join("\n")).nodes))
      continue
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line)
    if (item !== null) {
      const ordered = /\d/.test(item[2] ?? "")
      const items: Array<Block> = []
      for (; i < lines.length; i++) {
        const current = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(lines[i] ?? "")
        if (current === null) break
        items.push(block("list-item", [block("paragraph", parseInline(current[3] ?? ""))]))
      }
      nodes.push(block(ordered ? "list-ordered" : "list-unordered", items))
      continue
    }
    const paragraph: Array<string> = []
    for (; i < lines.length && (lines[i] ?? "").trim() !== "" && !/^(#{1,6}\s|```|>|\s*([-*+]|\d+[.)])\s)/.test(lines[i] ?? ""); i++) {
      paragraph.push((lines[i] ?? "").trim())
    }
    if (paragraph.length === 0) {
      paragraph.push(line.trim())
      i++
    }
    nodes.push(block("paragraph", parseInline(paragraph.join(" "))))
  }
  return { object: "document", data: {}, nodes }
}
