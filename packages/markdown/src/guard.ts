/**
 * A linear look at markdown before it is parsed, for what the parser takes super-linear time on:
 * containers (list items, block quotes) nested many deep, on one line or by indentation, and
 * paragraphs dense with emphasis or link brackets, whose pairing micromark resolves in time that
 * grows faster than the text; and a bound on lines, where the cost is linear but high. Input is
 * refused past limits no real page reaches; stored markdown is never checked again, so what was
 * accepted once keeps being read.
 */

/** The deepest containers one line may open. */
export const MAX_LINE_NESTING = 64
/** The most emphasis markers (`*`, `_`) or link brackets (`[`, `]`) one paragraph may hold, each. */
export const MAX_PARAGRAPH_MARKERS = 5_000
/**
 * The most of each a whole text may hold. Parsing spends some 20 µs on each marker (6 s on 500 KB
 * of dense emphasis, against 0.5 s on as much prose), more in a crowded paragraph: this bounds a
 * parse near half a second.
 */
export const MAX_TEXT_MARKERS = 30_000

/**
 * The most lines outside fenced code a text may have. Parsing is linear from here on but costs some
 * 60 µs a block (2.5 s for 40,000 one-line paragraphs): this bounds a text near 3 s.
 */
export const MAX_TEXT_LINES = 50_000

const isSpace = (c: string | undefined) => c === " " || c === "\t"

/**
 * How many containers the line opens at its start (`>`, `-`, `+`, `*` and `1.`/`1)` markers in a
 * row), and where its content begins.
 */
const containersOpened = (line: string): { readonly depth: number; readonly end: number; readonly item: boolean } => {
  let i = 0
  let depth = 0
  let item = false
  for (;;) {
    let spaces = 0
    while (line[i] === " " && spaces < 4) {
      i++
      spaces++
    }
    const c = line[i]
    if (c === ">") {
      i++
      if (isSpace(line[i])) i++
    } else if ((c === "-" || c === "+" || c === "*") && isSpace(line[i + 1])) {
      i += 2
      item = true
    } else {
      let digits = 0
      while (digits < 10 && line[i + digits] !== undefined && line[i + digits]! >= "0" && line[i + digits]! <= "9") digits++
      const after = line[i + digits]
      if (digits === 0 || digits > 9 || (after !== "." && after !== ")") || !isSpace(line[i + digits + 1])) return { depth, end: i, item }
      i += digits + 2
      item = true
    }
    depth++
    if (depth > MAX_LINE_NESTING) return { depth, end: i, item }
  }
}

const fence = /^ {0,3}(`{3,}|~{3,})/

/** The columns of a line's leading spaces and tabs (a tab to the next multiple of 4), and where they end. */
const indentOf = (line: string): { readonly width: number; readonly end: number } => {
  let width = 0
  let end = 0
  for (; end < line.length; end++) {
    if (line[end] === " ") width++
    else if (line[end] === "\t") width += 4 - (width % 4)
    else break
  }
  return { width, end }
}

/** Why the markdown would take the parser too long, or undefined when it is fine. */
export const markdownProblem = (markdown: string): string | undefined => {
  let emphasis = 0
  let brackets = 0
  let allEmphasis = 0
  let allBrackets = 0
  let fenced: string | undefined
  // The indentation of the list items open above, outermost first: each item indented past the
  // last nests in it, so lines indented a little more each time nest without any line being deep.
  const items: Array<number> = []
  let lines = 0
  for (const line of markdown.split("\n")) {
    const opened = fence.exec(line)?.[1]
    if (fenced !== undefined) {
      // Inside a fenced code block nothing is parsed: only its closing fence matters.
      if (opened !== undefined && opened[0] === fenced[0] && opened.length >= fenced.length) fenced = undefined
      continue
    }
    if (opened !== undefined) {
      fenced = opened
      emphasis = brackets = 0
      continue
    }
    if (++lines > MAX_TEXT_LINES) return `must not have more than ${MAX_TEXT_LINES} lines outside fenced code`
    const indent = indentOf(line)
    const { depth, end, item } = containersOpened(indent.width >= 4 ? line.slice(indent.end) : line)
    if (depth > MAX_LINE_NESTING) return `must not nest lists or quotes more than ${MAX_LINE_NESTING} deep on one line`
    if (item) {
      while (items.length > 0 && items[items.length - 1]! >= indent.width) items.pop()
      items.push(indent.width)
      if (items.length - 1 + depth > MAX_LINE_NESTING) return `must not nest lists or quotes more than ${MAX_LINE_NESTING} deep`
    } else if (indent.width === 0 && depth === 0 && line.trim() !== "") {
      items.length = 0
    }
    // A blank line (inside quotes too), a new list item or a heading starts a new paragraph; a quoted line goes on with one.
    const content = (indent.width >= 4 ? line.slice(indent.end) : line).slice(end)
    if (content.trim() === "" || item || /^ {0,3}#/.test(content)) emphasis = brackets = 0
    for (let i = 0; i < content.length; i++) {
      const c = content[i]
      if (c === "*" || c === "_") {
        emphasis++
        allEmphasis++
      } else if (c === "[" || c === "]") {
        brackets++
        allBrackets++
      }
    }
    if (emphasis > MAX_PARAGRAPH_MARKERS) {
      return `must not hold more than ${MAX_PARAGRAPH_MARKERS} emphasis markers (* and _) in one paragraph`
    }
    if (brackets > MAX_PARAGRAPH_MARKERS) {
      return `must not hold more than ${MAX_PARAGRAPH_MARKERS} link brackets ([ and ]) in one paragraph`
    }
    if (allEmphasis > MAX_TEXT_MARKERS) return `must not hold more than ${MAX_TEXT_MARKERS} emphasis markers (* and _)`
    if (allBrackets > MAX_TEXT_MARKERS) return `must not hold more than ${MAX_TEXT_MARKERS} link brackets ([ and ])`
  }
  return undefined
}
