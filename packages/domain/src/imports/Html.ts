import { type DefaultTreeAdapterTypes, parse } from "parse5"

type Node = DefaultTreeAdapterTypes.Node
type ChildNode = DefaultTreeAdapterTypes.ChildNode
type Element = DefaultTreeAdapterTypes.Element
type ParentNode = DefaultTreeAdapterTypes.ParentNode

/** Where the links and images of an imported page point once it is in a space. */
export interface MarkdownRewrite {
  /** Called with the absolute URL of each <a href> (fragment kept); returns what the markdown link points to. */
  readonly link: (url: string) => string
  /** Called with the absolute URL of each <img src>; returns what the markdown image points to. */
  readonly image: (url: string) => string
}

/** A fetched HTML page, read for "import content from a website". */
export interface HtmlPage {
  /** The first <h1> of the main content, else <title>, trimmed and whitespace-collapsed; undefined when neither has text. */
  readonly title: string | undefined
  /** Absolute http(s) URLs of every <a href> in the whole document (navigation included), fragment removed, distinct, in document order. */
  readonly links: ReadonlyArray<string>
  /** Absolute http(s) URLs of every <img src> in the main content, distinct, in document order. */
  readonly images: ReadonlyArray<string>
  /** The main content as GitHub-flavoured markdown; the <h1> used as title is left out. */
  readonly toMarkdown: (rewrite: MarkdownRewrite) => string
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** The encoding a byte order mark announces; it wins over any label (WHATWG "decode"). */
const encodingOfBom = (bytes: Uint8Array): string | undefined => {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8"
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be"
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le"
  return undefined
}

/** The canonical name of an encoding label TextDecoder knows, else undefined. */
const knownEncoding = (label: string | undefined): string | undefined => {
  if (label === undefined) return undefined
  const trimmed = label.trim().replace(/^["']|["']$/g, "")
  if (trimmed === "") return undefined
  try {
    return new TextDecoder(trimmed).encoding
  } catch {
    return undefined
  }
}

const charsetParameter = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i

/** The charset a `<meta charset>` or `<meta http-equiv="content-type">` declares in the first 1024 bytes. */
const declaredCharset = (bytes: Uint8Array): string | undefined => {
  // Bytes as Latin-1 characters: every ASCII-compatible encoding spells the markup the same way.
  const head = String.fromCharCode(...bytes.subarray(0, 1024)).replace(/<!--[\s\S]*?(?:-->|$)/g, "")
  for (const tag of head.matchAll(/<meta[\s/]([^>]*)/gi)) {
    const attributes = new Map<string, string>()
    for (const attribute of (tag[1] ?? "").matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      const name = (attribute[1] ?? "").toLowerCase()
      if (!attributes.has(name)) attributes.set(name, attribute[2] ?? attribute[3] ?? attribute[4] ?? "")
    }
    const charset = attributes.get("charset")
    if (charset !== undefined && charset.trim() !== "") return charset
    if (attributes.get("http-equiv")?.trim().toLowerCase() === "content-type") {
      const match = charsetParameter.exec(attributes.get("content") ?? "")
      if (match !== null) return match[1] ?? match[2] ?? match[3]
    }
  }
  return undefined
}

/**
 * The text of an HTML page's bytes: a byte order mark first, then the charset of the content type
 * (a bare label, or a whole content type with a charset parameter), then one declared in a
 * `<meta>` of the first 1024 bytes, else UTF-8. Labels TextDecoder does not know count as absent.
 */
export const decodeHtml = (bytes: Uint8Array, contentTypeCharset?: string): string => {
  const parameter = contentTypeCharset === undefined ? null : charsetParameter.exec(contentTypeCharset)
  const fromContentType = knownEncoding(parameter === null ? contentTypeCharset : parameter[1] ?? parameter[2] ?? parameter[3])
  const fromMeta = knownEncoding(declaredCharset(bytes))
  // A <meta> found by reading bytes as ASCII cannot mean UTF-16 (WHATWG "prescan").
  const declared = fromMeta === "utf-16le" || fromMeta === "utf-16be" ? "utf-8" : fromMeta
  return new TextDecoder(encodingOfBom(bytes) ?? fromContentType ?? declared ?? "utf-8").decode(bytes)
}

// ---------------------------------------------------------------------------------------------
// The document tree

const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml"

const isElement = (node: Node): node is Element => "tagName" in node
const isText = (node: Node): node is DefaultTreeAdapterTypes.TextNode => node.nodeName === "#text" && !isElement(node)

const isHtml = (element: Element, tagName: string): boolean =>
  element.tagName === tagName && (element.namespaceURI as string) === HTML_NAMESPACE

const attributeOf = (element: Element, name: string): string | undefined =>
  element.attrs.find((attribute) => attribute.name === name && attribute.namespace === undefined)?.value

/** Characters this module uses as markers while it builds markdown; removed from the page's text. */
const BREAK = "\uE000"
const LINK_OPEN = "\uE001"
const TARGET_OPEN = "\uE002"
const TARGET_CLOSE = "\uE003"
const STRONG = { open: "\uE004", close: "\uE005" }
const EMPHASIS = { open: "\uE006", close: "\uE007" }
const DELETED = { open: "\uE008", close: "\uE009" }
const withoutMarkers = (text: string): string => text.replace(/[\uE000-\uE00F]/g, "")

/** HTML's whitespace, which a browser collapses; no-break spaces are not part of it. */
const collapse = (text: string): string => text.replace(/[ \t\n\r\f]+/g, " ")
const isHtmlSpace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c
/** By loops: a regex for trailing space (`\s+$`) retries at every space of a run inside the text, quadratic on long runs. */
const trimHtml = (text: string): string => {
  let start = 0
  let end = text.length
  while (start < end && isHtmlSpace(text.charCodeAt(start))) start++
  while (end > start && isHtmlSpace(text.charCodeAt(end - 1))) end--
  return text.slice(start, end)
}

/** Calls `enter` on each node under `root` in document order, and `leave` on each element entered; `enter` returning false skips an element's children. */
const walk = (root: ParentNode, enter: (node: ChildNode) => boolean, leave?: (element: Element) => void): void => {
  type Step = { readonly node: ChildNode; readonly leaving: boolean }
  const stack: Array<Step> = []
  const pushChildren = (parent: ParentNode) => {
    for (let i = parent.childNodes.length - 1; i >= 0; i--) stack.push({ node: parent.childNodes[i]!, leaving: false })
  }
  pushChildren(root)
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const { leaving, node } = step
    if (leaving) {
      if (isElement(node)) leave?.(node)
      continue
    }
    if (enter(node) && isElement(node)) {
      if (leave !== undefined) stack.push({ node, leaving: true })
      pushChildren(node)
    }
  }
}

/** Never content: scripts, styles, embedded documents and the controls of forms. */
const NEVER_CONTENT = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "iframe",
  "form",
  "button",
  "head",
  "select",
  "textarea",
  "object",
  "embed",
  "canvas",
  "audio",
  "video",
  "dialog"
])
/** The site's chrome around a page, dropped when no element marks the main content. */
const CHROME = new Set(["nav", "header", "footer", "aside"])
const CHROME_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search"])

/** Elements that start a new block: they end the paragraph around them. */
const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "xmp"
])

const HEADING_LEVEL: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 }

/** Past this nesting the structure is given up for plain text, so that no page exhausts the stack. */
const MAX_DEPTH = 200

/** The most columns a table is written with: the cells of a row past them join its last column. */
const MAX_COLUMNS = 64
/**
 * The most cells (rows × columns) a table is written as a grid. Every row is padded to the widest,
 * so past this a few wide rows would multiply the page; such a table is written a paragraph a row.
 */
const MAX_CELLS = 10_000

// ---------------------------------------------------------------------------------------------
// Markdown text

/** Escapes what would be markup anywhere in a line: emphasis, code, links, tags and autolinks, entities, backslashes (at a text's end, what may follow is unknown). */
const escapeText = (text: string): string =>
  text.replace(/\\(?=[!-/:-@[-`{-~\s]|$)|[*_`[\]~]|<(?![ \t\n\r\f])|&(?=#?[0-9A-Za-z]+;|$)/g, (found) => `\\${found}`)

/**
 * Escapes what would be markup at the start of a line: headings, quotes, list items, rules,
 * setext underlines, table delimiter rows. Delimiter markers are looked through, since a delimiter may yet be left out.
 */
const escapeLineStart = (line: string): string => {
  const visible = line.replace(/[\uE004-\uE009]/g, "")
  // Where the `n`th visible character stands in `line`.
  const positionOf = (n: number): number => {
    let seen = 0
    for (let i = 0; i < line.length; i++) {
      if (/[\uE004-\uE009]/.test(line[i] as string)) continue
      if (seen === n) return i
      seen++
    }
    return line.length
  }
  const escapeAt = (n: number) => `${line.slice(0, positionOf(n))}\\${line.slice(positionOf(n))}`
  // A line of dashes and pipes under a line with a pipe would make a table of the two (tested in
  // two steps: `[ |:-]*-[ |:-]*$` backtracks quadratically on a long run of dashes).
  const tableDelimiter = visible.includes("|") && visible.includes("-") && /^[ |:-]*$/.test(visible)
  if (tableDelimiter || /^(?:=+ *|-[- ]*)$/.test(visible) || /^(?:#{1,6}|[-+])(?= |$)/.test(visible) || visible.startsWith(">"))
    return escapeAt(0)
  const numbered = /^(\d{1,9})[.)](?= |$)/.exec(visible)
  return numbered === null ? line : escapeAt(numbered[1]?.length ?? 0)
}

const longestRun = (text: string, char: string): number => {
  let longest = 0
  let current = 0
  for (const c of text) {
    current = c === char ? current + 1 : 0
    longest = Math.max(longest, current)
  }
  return longest
}

/** Wraps inline markdown in a delimiter, keeping the whitespace at its edges outside (`** x**` is not bold). */
const wrap = (inner: string, delimiter: { readonly open: string; readonly close: string }): string => {
  // Any Unicode space, no-break ones included: a delimiter beside one cannot open or close.
  const lead = /^[\s\uE000]*/.exec(inner)?.[0] ?? ""
  const rest = inner.slice(lead.length)
  // A loop, not `\s*$`, which retries at every space of a run inside the text.
  let coreEnd = rest.length
  while (coreEnd > 0 && /[\s\uE000]/.test(rest[coreEnd - 1] as string)) coreEnd--
  const trail = rest.slice(coreEnd)
  const core = rest.slice(0, coreEnd)
  // Two breaks in a row split the paragraph, which a delimiter cannot span.
  if (core === "" || /\uE000\s*\uE000/.test(core)) return inner
  return `${lead}${delimiter.open}${core}${delimiter.close}${trail}`
}

/** What each marker stands for when it is a neighbour of a delimiter: punctuation all. */
const MARKER_CHAR: Readonly<Record<string, string>> = {
  [LINK_OPEN]: "[",
  [STRONG.open]: "*",
  [STRONG.close]: "*",
  [EMPHASIS.open]: "_",
  [EMPHASIS.close]: "_",
  [DELETED.open]: "~",
  [DELETED.close]: "~"
}

const DELIMITER_CHOICES: Readonly<Record<string, ReadonlyArray<string>>> = {
  [STRONG.open]: ["**"],
  [EMPHASIS.open]: ["_", "*"],
  [DELETED.open]: ["~~"]
}
const CLOSER_OF: Readonly<Record<string, string>> = {
  [STRONG.open]: STRONG.close,
  [EMPHASIS.open]: EMPHASIS.close,
  [DELETED.open]: DELETED.close
}

const isSpace = (char: string | undefined): boolean => char === undefined || /\s/u.test(char)
const isPunctuation = (char: string | undefined): boolean => char !== undefined && /[\p{P}\p{S}]/u.test(char)

/** CommonMark's flanking rules: whether a run of `delimiter` between `before` and `after` may open or close. */
const canOpen = (delimiter: string, before: string | undefined, after: string | undefined): boolean => {
  const left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before))
  const right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after))
  return delimiter.startsWith("_") ? left && (!right || isPunctuation(before)) : left
}
const canClose = (delimiter: string, before: string | undefined, after: string | undefined): boolean => {
  const left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before))
  const right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after))
  return delimiter.startsWith("_") ? right && (!left || isPunctuation(after)) : right
}

/** The character before or after position `i`, whole code points, markers as what they stand for. */
const neighbour = (text: string, i: number, direction: -1 | 1): string | undefined => {
  const at = direction === 1 ? i + 1 : i - 1
  if (at < 0 || at >= text.length) return undefined
  const unit = text[at] as string
  const marker = MARKER_CHAR[unit]
  if (marker !== undefined) return marker
  if (direction === -1 && /[\uDC00-\uDFFF]/.test(unit) && at > 0) return String.fromCodePoint(text.codePointAt(at - 1) ?? 0)
  return String.fromCodePoint(text.codePointAt(at) ?? 0)
}

interface DelimiterPair {
  readonly open: number
  readonly close: number
  /** The first delimiter that works where the pair stands, if any does. */
  readonly delimiter: string | undefined
}

const pairsIn = (text: string): ReadonlyArray<DelimiterPair> => {
  const pairs: Array<DelimiterPair> = []
  const opened: Array<number> = []
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string
    if (DELIMITER_CHOICES[char] !== undefined) opened.push(i)
    else if (char === STRONG.close || char === EMPHASIS.close || char === DELETED.close) {
      const open = opened.pop()
      if (open === undefined || CLOSER_OF[text[open] as string] !== char) continue
      // `*` beside `**` would make one run of three, which reads differently.
      const besideStrong = [open - 1, open + 1, i - 1, i + 1].some((j) => text[j] === STRONG.open || text[j] === STRONG.close)
      const delimiter = (DELIMITER_CHOICES[text[open] as string] ?? []).find((candidate) =>
        !(candidate === "*" && besideStrong) &&
        canOpen(candidate, neighbour(text, open, -1), neighbour(text, open, 1)) &&
        canClose(candidate, neighbour(text, i, -1), neighbour(text, i, 1))
      )
      pairs.push({ open, close: i, delimiter })
    }
  }
  return pairs
}

/**
 * Writes the delimiters `wrap` left as markers, once their neighbours are known: runs of one kind
 * that touch read as one (`**a****b**` would not), emphasis inside a word is `*x*` (`_x_` does not
 * work there), and emphasis no delimiter can express where it stands (`a**(b)**`) is left out, so
 * that its text at least reads right.
 */
const resolveDelimiters = (text: string): string => {
  const touching = new RegExp(`${STRONG.close}${STRONG.open}|${EMPHASIS.close}${EMPHASIS.open}|${DELETED.close}${DELETED.open}`, "g")
  let current = text.replace(touching, "")
  let pairs = pairsIn(current)
  // Leaving a pair out changes its neighbours' neighbours; a few rounds settle any real page.
  for (let round = 0; round < 8 && pairs.some((pair) => pair.delimiter === undefined); round++) {
    const dropped = new Set(pairs.flatMap((pair) => (pair.delimiter === undefined ? [pair.open, pair.close] : [])))
    current = Array.from(current.split(""), (char, i) => (dropped.has(i) ? "" : char)).join("").replace(touching, "")
    pairs = pairsIn(current)
  }
  const out = current.split("")
  for (let i = 0; i < out.length; i++) if (/[\uE004-\uE009]/.test(out[i] as string)) out[i] = ""
  for (const pair of pairs) {
    out[pair.open] = pair.delimiter ?? ""
    out[pair.close] = pair.delimiter ?? ""
  }
  return out.join("")
}

/** An inline code span of text, its backtick fence longer than any run inside. */
const codeSpan = (text: string): string => {
  const collapsed = collapse(withoutMarkers(text))
  const core = collapsed.trim()
  if (core === "") return collapsed === "" ? "" : " "
  const fence = "`".repeat(longestRun(core, "`") + 1)
  const pad = core.startsWith("`") || core.endsWith("`") ? " " : ""
  return `${collapsed.startsWith(" ") ? " " : ""}${fence}${pad}${core}${pad}${fence}${collapsed.endsWith(" ") ? " " : ""}`
}

/** Inline markup as paragraphs: whitespace collapsed, one `<br>` a hard break, two or more a new paragraph. */
const paragraphsOf = (inline: string): ReadonlyArray<string> => {
  const paragraphs: Array<string> = []
  let lines: Array<string> = []
  const end = () => {
    if (lines.length > 0) paragraphs.push(lines.map(escapeLineStart).join("\\\n"))
    lines = []
  }
  for (const piece of inline.split(BREAK)) {
    const line = trimHtml(collapse(piece))
    // A line of no-break spaces only (`<p>&nbsp;</p>`, a spacer) shows nothing.
    if (/^[\s\uE004-\uE009]*$/.test(line)) end()
    else lines.push(line)
  }
  end()
  return paragraphs
}

/** A link or image destination the markdown reads back whole (and that content/Links.ts can find). */
const destinationOf = (target: string): string => {
  // Percent-encoded: U+0000 to U+0020 and U+007F (the code units outside the two printable ranges, as a negated class so
  // that the pattern holds no control character), and ( ) < > | \.
  const escaped = /[^\u0021-\u007e\u0080-\uffff]|[()<>|\\]/g
  const encoded = target.replace(escaped, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`)
  return encoded === "" ? "<>" : encoded
}

// ---------------------------------------------------------------------------------------------
// Reading a page

/** The main content of a page: its element, and whether the site's chrome must be dropped from it. */
const mainContentOf = (document: ParentNode): { readonly root: ParentNode; readonly chrome: boolean } => {
  let main: Element | undefined
  let byRole: Element | undefined
  let article: Element | undefined
  let body: Element | undefined
  walk(document, (node) => {
    if (!isElement(node)) return false
    if (main === undefined && isHtml(node, "main")) main = node
    if (byRole === undefined && attributeOf(node, "role")?.trim().toLowerCase() === "main") byRole = node
    if (article === undefined && isHtml(node, "article")) article = node
    if (body === undefined && isHtml(node, "body")) body = node
    return main === undefined
  })
  const marked = main ?? byRole ?? article
  return marked !== undefined ? { root: marked, chrome: false } : { root: body ?? document, chrome: true }
}

interface Target {
  readonly kind: "link" | "image"
  readonly url: string
}

interface Inline {
  readonly strong: boolean
  readonly emphasis: boolean
  readonly deleted: boolean
  /** Inside a link's text: no further link. */
  readonly link: boolean
  /** Inside a table cell or a link: `<br>` is a space. */
  readonly oneLine: boolean
}

const PLAIN: Inline = { strong: false, emphasis: false, deleted: false, link: false, oneLine: false }

interface Block {
  readonly markdown: string
  readonly kind: "paragraph" | "list" | "other"
  /** For a list: ordered or not, and whether it used the alternate marker to stand apart from a list just before it. */
  readonly list?: { readonly ordered: boolean; readonly alternate: boolean; readonly start: number }
}

const joinBlocks = (blocks: ReadonlyArray<Block>): string => blocks.map((block) => block.markdown).join("\n\n")

/** A list item's blocks, a list right under a line of text kept tight ("- a\n  - b"). */
const joinItem = (blocks: ReadonlyArray<Block>): string => {
  let text = ""
  blocks.forEach((block, i) => {
    const previous = blocks[i - 1]
    // Only a bullet list or one that starts at 1 may follow a paragraph's line without a blank line.
    const tight = previous?.kind === "paragraph" && block.list !== undefined && (!block.list.ordered || block.list.start === 1)
    text += i === 0 ? block.markdown : `${tight ? "\n" : "\n\n"}${block.markdown}`
  })
  return text
}

const indented = (marker: string, body: string): string => {
  const indent = " ".repeat(marker.length + 1)
  return body
    .split("\n")
    // "* ***" would be one rule, not an item holding a rule.
    .map((line, i) => (i === 0 ? `${marker} ${marker === "*" && line === "***" ? "---" : line}` : line === "" ? "" : `${indent}${line}`))
    .join("\n")
}

const languageOf = (element: Element | undefined): string | undefined => {
  for (const token of (element === undefined ? "" : attributeOf(element, "class") ?? "").split(/[ \t\n\r\f]+/)) {
    const match = /^(?:language|lang)-([^`]+)$/i.exec(token)
    if (match !== null) return match[1]
  }
  return undefined
}

const spanOf = (element: Element, name: string): number => {
  const value = Number.parseInt(attributeOf(element, name) ?? "", 10)
  return Number.isFinite(value) && value >= 1 ? Math.min(value, 100) : 1
}

const alignmentOf = (cell: Element | undefined): string => {
  if (cell === undefined) return "---"
  const style = /text-align\s*:\s*(left|right|center)/i.exec(attributeOf(cell, "style") ?? "")?.[1]
  const align = (attributeOf(cell, "align") ?? style ?? "").trim().toLowerCase()
  return align === "center" ? ":---:" : align === "right" ? "---:" : align === "left" ? ":---" : "---"
}

/** A page read: its markdown written but for the destinations of its links and images. */
interface ReadPage {
  readonly title: string | undefined
  readonly links: ReadonlyArray<string>
  readonly images: ReadonlyArray<string>
  /** The markdown, cut at each destination: text at even indices, between them the index in `targets` of what goes there. */
  readonly pieces: ReadonlyArray<string>
  readonly targets: ReadonlyArray<Target>
}

const readPage = (html: string, url: string): ReadPage => {
  const document = parse(html)

  // Links resolve against the first <base href>, itself resolved against the page's URL.
  let base: URL | undefined
  try {
    base = new URL(url)
  } catch {
    base = undefined
  }
  let baseElement: Element | undefined
  walk(document, (node) => {
    if (baseElement === undefined && isElement(node) && isHtml(node, "base") && attributeOf(node, "href") !== undefined) baseElement = node
    return baseElement === undefined
  })
  const resolve = (reference: string): URL | undefined => {
    try {
      return new URL(reference, base)
    } catch {
      return undefined
    }
  }
  const baseHref = baseElement === undefined ? undefined : resolve(attributeOf(baseElement, "href") ?? "")
  if (baseHref !== undefined && (baseHref.protocol === "http:" || baseHref.protocol === "https:")) base = baseHref
  const isWeb = (target: URL | undefined): target is URL =>
    target !== undefined && (target.protocol === "http:" || target.protocol === "https:")

  const links = new Set<string>()
  walk(document, (node) => {
    if (isElement(node) && isHtml(node, "a")) {
      const href = attributeOf(node, "href")
      const target = href === undefined ? undefined : resolve(href)
      if (isWeb(target)) {
        target.hash = ""
        links.add(target.href)
      }
    }
    return true
  })

  const { chrome, root } = mainContentOf(document)
  const isDropped = (element: Element): boolean => {
    if (NEVER_CONTENT.has(element.tagName)) return true
    if (attributeOf(element, "hidden") !== undefined || attributeOf(element, "aria-hidden")?.trim().toLowerCase() === "true") return true
    return chrome && (CHROME.has(element.tagName) || CHROME_ROLES.has(attributeOf(element, "role")?.trim().toLowerCase() ?? ""))
  }

  /** The text a reader sees: `<br>` and blocks become spaces, or line ends in preformatted text. */
  const textOf = (element: Element, mode: "line" | "pre" | "heading"): string => {
    let text = ""
    const separator = mode === "pre" ? "\n" : " "
    const atBlockEdge = (node: Element) => {
      if (BLOCK.has(node.tagName) && !text.endsWith(separator)) text += separator
    }
    // Permalink anchors beside a heading's text ("#", "¶", "🔗") are not part of it: where each
    // anchor's text starts, and where the last letter or digit so far ends, tell one once it is
    // left (asking each its own text would walk anchors nested through table cells over and over).
    const anchorStarts = new Map<Element, number>()
    let lettersEnd = 0
    walk(element, (node) => {
      if (!isElement(node)) {
        if (isText(node)) {
          text += node.value
          if (mode === "heading" && /[\p{L}\p{N}]/u.test(node.value)) lettersEnd = text.length
        }
        return false
      }
      if (isDropped(node)) return false
      if (mode === "heading" && isHtml(node, "a") && attributeOf(node, "href")?.trim().startsWith("#") === true)
        anchorStarts.set(node, text.length)
      if (node.tagName === "br") text += separator
      atBlockEdge(node)
      return true
    }, (node) => {
      atBlockEdge(node)
      const start = anchorStarts.get(node)
      if (start !== undefined && lettersEnd <= start) text = text.slice(0, start)
    })
    return withoutMarkers(text)
  }

  const headingText = (element: Element): string => collapse(textOf(element, "heading")).trim()

  // The title: the first <h1> with text in the main content, else <title>.
  let titleHeading: Element | undefined
  walk(root, (node) => {
    if (titleHeading !== undefined || !isElement(node) || isDropped(node)) return false
    if (!isHtml(node, "h1")) return true
    if (headingText(node) !== "") titleHeading = node
    // An <h1> without text holds no <h1> with text: walking those again would be quadratic in their nesting.
    return false
  })
  let titleElement: Element | undefined
  walk(document, (node) => {
    if (titleElement === undefined && isElement(node) && isHtml(node, "title")) titleElement = node
    return titleElement === undefined && isElement(node) && node.tagName !== "svg"
  })
  const titleText = titleHeading !== undefined ? headingText(titleHeading) : titleElement === undefined ? "" : headingText(titleElement)

  // Which elements hold a block somewhere inside: an inline element that does is laid out as a block.
  const holdsBlock = new Set<Element>()
  const visited: Array<Element> = []
  walk(root, (node) => {
    if (!isElement(node) || isDropped(node)) return false
    visited.push(node)
    return true
  })
  for (let i = visited.length - 1; i >= 0; i--) {
    const element = visited[i]!
    const parent = element.parentNode
    if ((BLOCK.has(element.tagName) || holdsBlock.has(element)) && parent !== null && isElement(parent)) holdsBlock.add(parent)
  }
  // A link keeps its target: what it holds is flattened into its text.
  const isBlock = (element: Element): boolean => BLOCK.has(element.tagName) || (element.tagName !== "a" && holdsBlock.has(element))

  const targets: Array<Target> = []
  const images = new Set<string>()
  const placeholder = (target: Target): string => {
    targets.push(target)
    return `${TARGET_OPEN}${targets.length - 1}${TARGET_CLOSE}`
  }

  const inlineChildren = (element: Element, context: Inline, depth: number): string =>
    element.childNodes.map((child) => inlineOf(child, context, depth + 1)).join("")

  const linkOf = (element: Element, context: Inline, depth: number, text?: string): string => {
    const inner = text ?? inlineChildren(element, { ...context, link: true, oneLine: true }, depth)
    const href = attributeOf(element, "href")
    const target = href === undefined ? undefined : resolve(href)
    if (context.link || target === undefined || !["http:", "https:", "mailto:", "tel:", "ftp:"].includes(target.protocol)) return inner
    let label = trimHtml(collapse(inner))
    if (label === "") {
      // A link around an icon only: its accessible name, else nothing a reader could click.
      const name = trimHtml(collapse(withoutMarkers(attributeOf(element, "aria-label") ?? attributeOf(element, "title") ?? "")))
      if (name === "") return inner
      label = escapeText(name)
    }
    const lead = /^[ \t\n\r\f]/.test(inner) ? " " : ""
    const trail = /[ \t\n\r\f]$/.test(inner) ? " " : ""
    return `${lead}${LINK_OPEN}${label}](${placeholder({ kind: "link", url: target.href })})${trail}`
  }

  const imageOf = (element: Element): string => {
    const src = attributeOf(element, "src")
    const target = src === undefined ? undefined : resolve(src)
    if (!isWeb(target)) return ""
    images.add(target.href)
    const alt = escapeText(trimHtml(collapse(withoutMarkers(attributeOf(element, "alt") ?? ""))))
    return `![${alt}](${placeholder({ kind: "image", url: target.href })})`
  }

  const inlineOf = (node: ChildNode, context: Inline, depth: number): string => {
    if (!isElement(node)) return isText(node) ? escapeText(collapse(withoutMarkers(node.value))) : ""
    if (isDropped(node) || node === titleHeading) return ""
    if (depth > MAX_DEPTH) return ` ${escapeText(collapse(textOf(node, "line")))} `
    switch (node.tagName) {
      case "br":
        return context.oneLine ? " " : BREAK
      case "img":
        return imageOf(node)
      case "a":
        return linkOf(node, context, depth)
      case "strong":
      case "b":
        return context.strong
          ? inlineChildren(node, context, depth)
          : wrap(inlineChildren(node, { ...context, strong: true }, depth), STRONG)
      case "em":
      case "i":
        return context.emphasis
          ? inlineChildren(node, context, depth)
          : wrap(inlineChildren(node, { ...context, emphasis: true }, depth), EMPHASIS)
      case "del":
      case "s":
      case "strike":
        return context.deleted
          ? inlineChildren(node, context, depth)
          : wrap(inlineChildren(node, { ...context, deleted: true }, depth), DELETED)
      case "code":
      case "kbd":
      case "samp":
      case "tt": {
        // `<code><a href>name</a></code>`, as API references write it, stays a link.
        const children = node.childNodes.filter((child) => !(isText(child) && trimHtml(child.value) === ""))
        const only = children.length === 1 ? children[0] : undefined
        if (only !== undefined && isElement(only) && isHtml(only, "a") && !context.link) {
          return linkOf(only, context, depth, codeSpan(textOf(only, "line")))
        }
        return codeSpan(textOf(node, "line"))
      }
      case "pre":
        return ` ${codeSpan(textOf(node, "line"))} `
      case "input":
        return attributeOf(node, "type")?.toLowerCase() === "checkbox" ? (attributeOf(node, "checked") === undefined ? "[ ] " : "[x] ") : ""
      default: {
        const inner = inlineChildren(node, context, depth)
        return isBlock(node) ? ` ${inner} ` : inner
      }
    }
  }

  const blocksOf = (nodes: ReadonlyArray<ChildNode>, depth: number): Array<Block> => {
    const out: Array<Block> = []
    blocksInto(nodes, out, depth)
    return out
  }

  /** Appends the blocks of `nodes` to `out`, which a container with no markup of its own shares with its parent. */
  const blocksInto = (nodes: ReadonlyArray<ChildNode>, out: Array<Block>, depth: number): void => {
    let buffer = ""
    const flush = () => {
      for (const paragraph of paragraphsOf(buffer)) out.push({ markdown: paragraph, kind: "paragraph" })
      buffer = ""
    }
    for (const node of nodes) {
      if (isElement(node) && (isDropped(node) || node === titleHeading)) {
        if (node === titleHeading) flush()
        continue
      }
      if (!isElement(node) || !isBlock(node)) {
        buffer += inlineOf(node, PLAIN, depth)
        continue
      }
      flush()
      blockOf(node, out, depth + 1)
    }
    flush()
  }

  const blockOf = (element: Element, out: Array<Block>, depth: number): void => {
    if (depth > MAX_DEPTH) {
      for (const paragraph of paragraphsOf(escapeText(textOf(element, "line")))) out.push({ markdown: paragraph, kind: "paragraph" })
      return
    }
    const level = HEADING_LEVEL[element.tagName]
    if (level !== undefined) {
      // A heading is its text; a closing run of #s would be read as the heading's end.
      const text = escapeText(headingText(element)).replace(/(^| )(#+)$/, "$1\\$2")
      if (text !== "") out.push({ markdown: `${"#".repeat(level)} ${text}`, kind: "other" })
      return
    }
    switch (element.tagName) {
      case "hr":
        // Not `---`: two of those around the first lines of a page would be read as its front matter.
        out.push({ markdown: "***", kind: "other" })
        return
      case "pre": {
        const code = codeBlockOf(element)
        if (code !== undefined) out.push({ markdown: code, kind: "other" })
        return
      }
      case "ul":
      case "ol": {
        const list = listOf(element, out[out.length - 1], depth)
        if (list !== undefined) out.push(list)
        return
      }
      case "blockquote": {
        const inner = joinBlocks(blocksOf(element.childNodes, depth))
        if (inner !== "")
          out.push({ markdown: inner.split("\n").map((line) => (line === "" ? ">" : `> ${line}`)).join("\n"), kind: "other" })
        return
      }
      case "table":
        tableOf(element, out, depth)
        return
      default:
        blocksInto(element.childNodes, out, depth)
    }
  }

  const codeBlockOf = (pre: Element): string | undefined => {
    const elements = pre.childNodes.filter(isElement)
    const code = elements.length === 1 && elements[0]?.tagName === "code" ? elements[0] : undefined
    const language = languageOf(code) ?? languageOf(pre) ?? ""
    // Verbatim, but without the blank lines that markup indentation leaves at either end
    // (trimEnd, as `\s+$` is quadratic on a long run of spaces inside the text).
    const text = textOf(pre, "pre").replace(/\r\n?/g, "\n").replace(/^(?:[ \t]*\n)+/, "").trimEnd()
    const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1))
    return text === "" ? undefined : `${fence}${language}\n${text}\n${fence}`
  }

  const listOf = (element: Element, previous: Block | undefined, depth: number): Block | undefined => {
    if (depth > MAX_DEPTH) {
      const text = paragraphsOf(escapeText(textOf(element, "line"))).join(" ")
      return text === "" ? undefined : { markdown: text, kind: "paragraph" }
    }
    const ordered = element.tagName === "ol"
    const alternate = previous?.list !== undefined && previous.list.ordered === ordered && !previous.list.alternate
    const startValue = Number.parseInt(attributeOf(element, "start") ?? "", 10)
    const start = ordered && Number.isFinite(startValue) ? Math.min(Math.max(startValue, 0), 999_999_999) : 1
    const items: Array<Array<Block>> = []
    const collect = (nodes: ReadonlyArray<ChildNode>, level: number) => {
      for (const node of nodes) {
        if (!isElement(node)) {
          if (isText(node) && trimHtml(node.value) !== "") items.push(blocksOf([node], depth))
          continue
        }
        if (isDropped(node)) continue
        if (node.tagName === "li") items.push(blocksOf(node.childNodes, depth))
        else if (node.tagName === "ul" || node.tagName === "ol") {
          // A list right inside a list belongs to the item before it.
          const owner = items[items.length - 1] ?? []
          if (items.length === 0) items.push(owner)
          const nested = listOf(node, owner[owner.length - 1], depth + 1)
          if (nested !== undefined) owner.push(nested)
        } else if (level < MAX_DEPTH && node.childNodes.some((child) => isElement(child) && child.tagName === "li"))
          collect(node.childNodes, level + 1)
        else items.push(blocksOf([node], depth))
      }
    }
    collect(element.childNodes, depth)
    const filled = items.filter((blocks) => blocks.length > 0)
    if (filled.length === 0) return undefined
    const rendered = filled.map((blocks, i) => {
      const marker = ordered ? `${start + i}${alternate ? ")" : "."}` : alternate ? "*" : "-"
      return indented(marker, joinItem(blocks))
    })
    const tight = filled.every((blocks) => blocks.filter((block) => block.kind !== "list").length <= 1)
    return { markdown: rendered.join(tight ? "\n" : "\n\n"), kind: "list", list: { ordered, alternate, start } }
  }

  const tableOf = (table: Element, out: Array<Block>, depth: number): void => {
    const rows: Array<Element> = []
    let caption: Element | undefined
    let nested = false
    for (const child of table.childNodes.filter(isElement)) {
      if (isDropped(child)) continue
      if (child.tagName === "caption") caption = child
      else if (child.tagName === "tr") rows.push(child)
      else if (["thead", "tbody", "tfoot"].includes(child.tagName))
        rows.push(...child.childNodes.filter((row): row is Element => isElement(row) && row.tagName === "tr" && !isDropped(row)))
    }
    walk(table, (node) => {
      if (isElement(node) && node !== table && node.tagName === "table" && !isDropped(node)) nested = true
      return !nested && isElement(node) && !isDropped(node)
    })
    // A table of tables lays a page out: its cells are read as blocks.
    if (nested) {
      blocksInto(table.childNodes, out, depth)
      return
    }
    if (caption !== undefined) blocksInto([caption], out, depth)
    const grid: Array<Array<string>> = []
    let width = 0
    let headerCells: Array<Element | undefined> = []
    const spans: Array<number> = []
    // Once the grid would pass MAX_CELLS, the rows as paragraphs: the texts of their cells.
    let rowTexts: Array<string> | undefined
    const textsOf = (line: ReadonlyArray<string>) => line.filter((text) => text !== "").join(" | ")
    for (const row of rows) {
      const line: Array<string> = []
      const cellsOfLine: Array<Element | undefined> = []
      const skipSpanned = () => {
        while ((spans[line.length] ?? 0) > 0) {
          spans[line.length] = (spans[line.length] ?? 1) - 1
          line.push("")
          cellsOfLine.push(undefined)
        }
      }
      for (const cell of row.childNodes) {
        if (!isElement(cell) || (cell.tagName !== "td" && cell.tagName !== "th") || isDropped(cell)) continue
        skipSpanned()
        const text = trimHtml(collapse(inlineChildren(cell, { ...PLAIN, oneLine: true }, depth))).replace(/\|/g, "\\|")
        if (line.length >= MAX_COLUMNS) {
          // Past the last column, a cell's text joins it.
          const last = line[MAX_COLUMNS - 1] ?? ""
          if (text !== "") line[MAX_COLUMNS - 1] = last === "" ? text : `${last} ${text}`
          continue
        }
        const rowSpan = spanOf(cell, "rowspan")
        const colSpan = Math.min(spanOf(cell, "colspan"), MAX_COLUMNS - line.length)
        for (let i = 0; i < colSpan; i++) {
          if (rowSpan > 1) spans[line.length] = rowSpan - 1
          line.push(i === 0 ? text : "")
          cellsOfLine.push(cell)
        }
      }
      skipSpanned()
      if (line.length === 0) continue
      if (rowTexts === undefined && (grid.length + 1) * Math.max(width, line.length) > MAX_CELLS) {
        rowTexts = grid.map(textsOf)
        grid.length = 0
      }
      if (rowTexts !== undefined) {
        rowTexts.push(textsOf(line))
        continue
      }
      if (grid.length === 0) headerCells = cellsOfLine
      width = Math.max(width, line.length)
      grid.push(line)
    }
    if (rowTexts !== undefined) {
      for (const paragraph of rowTexts.flatMap(paragraphsOf)) out.push({ markdown: paragraph, kind: "paragraph" })
      return
    }
    if (width === 0) return
    const format = (line: ReadonlyArray<string>) => `| ${Array.from({ length: width }, (_, i) => line[i] ?? "").join(" | ")} |`
    const [header = [], ...body] = grid
    const delimiter = `| ${Array.from({ length: width }, (_, i) => alignmentOf(headerCells[i])).join(" | ")} |`
    out.push({ markdown: [format(header), delimiter, ...body.map(format)].join("\n"), kind: "other" })
  }

  // trim, not `\s+$`, which is quadratic on a long run of spaces inside the text.
  const trimmed = resolveDelimiters(joinBlocks(blocksOf(root.childNodes, 0))).trim()
  // Whatever wrote it, a first line `---` would be read as the start of front matter.
  const body = trimmed === "---" || trimmed.startsWith("---\n") ? `\\${trimmed}` : trimmed
  const markdown = (body === "" ? "" : `${body}\n`)
    // Text then a link: "Hi!" before "[there](…)" must not read as an image.
    .replace(new RegExp(`!${LINK_OPEN}`, "g"), `\\![`)
    .replace(new RegExp(LINK_OPEN, "g"), "[")

  return {
    title: titleText === "" ? undefined : titleText,
    links: Array.from(links),
    images: Array.from(images),
    pieces: markdown.split(new RegExp(`${TARGET_OPEN}(\\d+)${TARGET_CLOSE}`)),
    targets
  }
}

/**
 * Reads a fetched HTML page at `url`: its title, the links of the whole document (the crawl's
 * frontier), and its main content as markdown whose links and images are pointed at the
 * caller's targets.
 *
 * The markdown is written here, not when asked for: `toMarkdown` holds only it and its targets,
 * so the page's document tree can be collected while the rest of an import goes on.
 */
export const readHtml = (html: string, url: string): HtmlPage => {
  const { images, links, pieces, targets, title } = readPage(html, url)
  return {
    title,
    links,
    images,
    toMarkdown: (rewrite) =>
      pieces.map((piece, i) => {
        if (i % 2 === 0) return piece
        const target = targets[Number(piece)]
        if (target === undefined) return ""
        return destinationOf(target.kind === "link" ? rewrite.link(target.url) : rewrite.image(target.url))
      }).join("")
  }
}
