import type { Delete, Emphasis, List, Nodes, Paragraph, Parents, PhrasingContent, Root, RootContent, Strong } from "mdast"
import { phrasing } from "mdast-util-phrasing"
import { text, visible } from "./handlers.js"
import { collapse } from "./tree.js"

// What hast-util-to-mdast leaves, made into markdown that reads back as the page read: whitespace
// where markdown keeps it, paragraphs that `<br><br>` parts, emphasis only where its delimiters work.

type Attention = Emphasis | Strong | Delete

/** The character of the delimiter the serializer writes for each kind of attention. */
export interface Markers {
  readonly emphasis: string
  readonly strong: string
  readonly delete: string
}

const isAttention = (node: Nodes): node is Attention => node.type === "emphasis" || node.type === "strong" || node.type === "delete"

const setChildren = (node: Parents, children: Array<RootContent>): void => {
  ;(node as { children: Array<RootContent> }).children = children
}

/** Where a node stands: inside which attention, inside a link, where a line break cannot be. */
interface Context {
  readonly emphasis: boolean
  readonly strong: boolean
  readonly delete: boolean
  readonly link: boolean
  readonly oneLine: boolean
}

const within = (node: Parents, context: Context): Context => {
  switch (node.type) {
    case "emphasis":
    case "strong":
    case "delete":
      return { ...context, [node.type]: true }
    case "link":
      return { ...context, link: true, oneLine: true }
    case "heading":
    case "tableCell":
      return { ...context, oneLine: true }
    default:
      return context
  }
}

const isSpace = (char: string): boolean => /^\s$/u.test(char)
const isPunctuation = (char: string): boolean => /^[\p{P}\p{S}]$/u.test(char)

/** The length of the whitespace a string starts with (`\s+$` would be quadratic on runs inside it, so loops). */
const leadingSpace = (value: string): number => {
  let n = 0
  while (n < value.length && isSpace(value[n] ?? "")) n++
  return n
}
const trailingSpace = (value: string): number => {
  let n = 0
  while (n < value.length && isSpace(value[value.length - 1 - n] ?? "")) n++
  return n
}

/** Whitespace and line breaks at the edges of emphasis or a link go outside it (`** x**` is not bold); one that shows nothing goes. */
const spaceOut = (children: ReadonlyArray<RootContent>): Array<RootContent> =>
  children.flatMap((child): Array<RootContent> => {
    if (!isAttention(child) && child.type !== "link") return [child]
    const inner: Array<PhrasingContent> = child.children
    const lead: Array<PhrasingContent> = []
    const trail: Array<PhrasingContent> = []
    for (let first = inner[0]; first !== undefined; first = inner[0]) {
      if (first.type === "break") lead.push(inner.shift() ?? first)
      else if (first.type !== "text") break
      else {
        const n = leadingSpace(first.value)
        if (n > 0) lead.push(text(first.value.slice(0, n)))
        first.value = first.value.slice(n)
        if (first.value !== "") break
        inner.shift()
      }
    }
    for (let last = inner[inner.length - 1]; last !== undefined; last = inner[inner.length - 1]) {
      if (last.type === "break") trail.unshift(inner.pop() ?? last)
      else if (last.type !== "text") break
      else {
        const n = trailingSpace(last.value)
        if (n > 0) trail.unshift(text(last.value.slice(last.value.length - n)))
        last.value = last.value.slice(0, last.value.length - n)
        if (last.value !== "") break
        inner.pop()
      }
    }
    return [...lead, ...(visible(inner) ? [child] : inner), ...trail]
  })

/** Adjacent text joined and collapsed; adjacent attention of one kind joined (`**a****b**` would not read as one). */
const merge = (children: ReadonlyArray<RootContent>): Array<RootContent> => {
  const out: Array<RootContent> = []
  for (const child of children) {
    const previous = out[out.length - 1]
    if (child.type === "text" && previous?.type === "text") previous.value = collapse(previous.value + child.value)
    else if (isAttention(child) && previous !== undefined && isAttention(previous) && previous.type === child.type)
      setChildren(previous, merge([...previous.children, ...child.children]))
    else out.push(child)
  }
  return out
}

/** A browser shows no space at the start of a line: after a line break, none is written. */
const afterBreaks = (children: Array<RootContent>): Array<RootContent> =>
  children.filter((child, i) => {
    if (child.type !== "text" || children[i - 1]?.type !== "break") return true
    child.value = child.value.replace(/^[ \t\n\r\f]+/, "")
    return child.value !== ""
  })

/** Bottom up: positions dropped, text collapsed, breaks on one line made spaces, attention and links cleaned of what adds nothing. */
const tidy = (node: Parents, context: Context): void => {
  const inner = within(node, context)
  const children: Array<RootContent> = []
  for (const child of node.children) {
    delete child.position
    if (child.type === "text") child.value = collapse(child.value)
    if (child.type === "break" && inner.oneLine) {
      children.push(text(" "))
      continue
    }
    if ("children" in child) {
      tidy(child, inner)
      // Emphasis inside the same emphasis, a link inside a link: the inner one adds nothing.
      if ((isAttention(child) && inner[child.type]) || (child.type === "link" && inner.link)) {
        children.push(...child.children)
        continue
      }
    }
    children.push(child)
  }
  setChildren(node, afterBreaks(merge(spaceOut(children))))
}

const isBlank = (node: PhrasingContent): boolean => node.type === "break" || (node.type === "text" && node.value.trim() === "")

/** Phrasing that starts and ends a block: no breaks or whitespace at its edges. */
const trimEdges = (children: ReadonlyArray<PhrasingContent>): Array<PhrasingContent> => {
  let start = 0
  let end = children.length
  while (start < end && isBlank(children[start] as PhrasingContent)) start++
  while (end > start && isBlank(children[end - 1] as PhrasingContent)) end--
  const kept = children.slice(start, end)
  const first = kept[0]
  if (first?.type === "text") first.value = first.value.trimStart()
  const last = kept[kept.length - 1]
  if (last?.type === "text") last.value = last.value.trimEnd()
  return kept
}

/** A paragraph parted where two line breaks follow each other, as a browser shows it. */
const splitParagraph = (paragraph: Paragraph): Array<Paragraph> => {
  const pieces: Array<Array<PhrasingContent>> = [[]]
  let pending: Array<PhrasingContent> = []
  let breaks = 0
  for (const child of paragraph.children) {
    if (isBlank(child)) {
      if (child.type === "break") breaks++
      pending.push(child)
      continue
    }
    if (breaks >= 2) pieces.push([])
    const piece = pieces[pieces.length - 1] as Array<PhrasingContent>
    if (breaks < 2) piece.push(...pending)
    piece.push(child)
    pending = []
    breaks = 0
  }
  return pieces.map(trimEdges).filter(visible).map((children) => ({ type: "paragraph", children }))
}

const blocksOf = (item: { readonly children: ReadonlyArray<RootContent> }): number =>
  item.children.filter((child) => child.type !== "list").length

const tidyList = (list: List): Array<List> => {
  for (const item of list.children) setChildren(item, flow(item.children))
  list.children = list.children.filter((item) => visible(item.children))
  if (list.children.length === 0) return []
  // A marker has at most nine digits.
  if (list.ordered === true) list.start = Math.min(Math.max(list.start ?? 1, 0), 999_999_999)
  for (const item of list.children) {
    // An ordered list that starts past 1 cannot interrupt a paragraph: a blank line parts them.
    item.spread = blocksOf(item) > 1 ||
      item.children.some((child, i) =>
        child.type === "list" && child.ordered === true && child.start !== 1 && item.children[i - 1]?.type === "paragraph"
      )
  }
  // Items of one block each (a nested list aside) make a tight list.
  list.spread = list.children.some((item) => blocksOf(item) > 1)
  return [list]
}

const holdsBlock = (node: RootContent): boolean =>
  (node.type === "paragraph" || isAttention(node)) && node.children.some((child) => !phrasing(child) || holdsBlock(child))

/**
 * A paragraph or emphasis around blocks (HTML's `<b><p>…</p></b>`) gives way to what it holds: the
 * blocks stay blocks, the emphasis is left out.
 */
const liftBlocks = (children: ReadonlyArray<RootContent>): Array<RootContent> =>
  children.flatMap((child) => (holdsBlock(child) && "children" in child ? liftBlocks(child.children) : [child]))

/** Phrasing among blocks (text right inside a list, say) in paragraphs, and items outside a list (a stray `<li>`) in one, as mdast has them. */
const wrapStrays = (children: ReadonlyArray<RootContent>): Array<RootContent> => {
  const out: Array<RootContent> = []
  let wrapper: Paragraph | List | undefined
  for (const child of children) {
    if (phrasing(child)) {
      if (wrapper?.type !== "paragraph") out.push(wrapper = { type: "paragraph", children: [] })
      wrapper.children.push(child)
    } else if (child.type === "listItem") {
      if (wrapper?.type !== "list") out.push(wrapper = { type: "list", ordered: false, spread: false, children: [] })
      wrapper.children.push(child)
    } else {
      wrapper = undefined
      out.push(child)
    }
  }
  return out
}

/** Blocks without the empty ones; paragraphs parted at double breaks; lists tight where their items allow. */
const flow = (children: ReadonlyArray<RootContent>): Array<RootContent> =>
  wrapStrays(liftBlocks(children)).flatMap((child): Array<RootContent> => {
    switch (child.type) {
      case "paragraph":
        return splitParagraph(child)
      case "heading":
        child.children = trimEdges(child.children)
        return visible(child.children) ? [child] : []
      case "blockquote":
        setChildren(child, flow(child.children))
        return child.children.length > 0 ? [child] : []
      case "list":
        return tidyList(child)
      case "table":
        for (const row of child.children) for (const cell of row.children) cell.children = trimEdges(cell.children)
        return [child]
      default:
        return [child]
    }
  })

const firstChar = (node: RootContent | undefined, markers: Markers): string => {
  switch (node?.type) {
    case "text":
      return node.value === "" ? " " : String.fromCodePoint(node.value.codePointAt(0) ?? 32)
    case "emphasis":
    case "strong":
    case "delete":
      return markers[node.type]
    case "inlineCode":
      return "`"
    case "link":
      return "["
    case "image":
      return "!"
    case "break":
      return "\\"
    default:
      return " "
  }
}

const lastChar = (node: RootContent | undefined, markers: Markers): string => {
  switch (node?.type) {
    case "text": {
      const chars = node.value.slice(-2)
      return chars === "" ? " " : Array.from(chars).pop() ?? " "
    }
    case "emphasis":
    case "strong":
    case "delete":
      return markers[node.type]
    case "inlineCode":
      return "`"
    case "link":
    case "image":
      return ")"
    case "break":
      return "\n"
    default:
      return " "
  }
}

/** CommonMark's flanking rules: whether a delimiter run between `before` and `after` may open, or close. */
const flanking = (before: string, after: string) => ({
  left: !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before)),
  right: !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after))
})
const canOpen = (marker: string, before: string, first: string): boolean => {
  const { left, right } = flanking(before, first)
  return marker === "_" ? left && (!right || isPunctuation(before)) : left
}
const canClose = (marker: string, last: string, after: string): boolean => {
  const { left, right } = flanking(last, after)
  return marker === "_" ? right && (!left || isPunctuation(after)) : right
}

const edgesOf = (node: Parents, markers: Markers): readonly [string, string] => {
  if (isAttention(node)) return [markers[node.type], markers[node.type]]
  return node.type === "link" ? ["[", "]"] : [" ", " "]
}

/**
 * Top down: attention its delimiters cannot express where it stands (`foo**(bar)**`, `un_believ_able`)
 * is left out, so that its text at least reads right. Leaving one out changes its neighbours'
 * neighbours: a few passes settle any real page.
 */
const fit = (node: Parents, before: string, after: string, markers: Markers): void => {
  let children: Array<RootContent> = node.children
  for (let pass = 0, changed = true; changed && pass < 8; pass++) {
    changed = false
    const out: Array<RootContent> = []
    children.forEach((child, i) => {
      if (isAttention(child)) {
        const marker = markers[child.type]
        const opens = canOpen(
          marker,
          out.length === 0 ? before : lastChar(out[out.length - 1], markers),
          firstChar(child.children[0], markers)
        )
        const closes = canClose(
          marker,
          lastChar(child.children[child.children.length - 1], markers),
          i === children.length - 1 ? after : firstChar(children[i + 1], markers)
        )
        if (!opens || !closes) {
          out.push(...child.children)
          changed = true
          return
        }
      }
      out.push(child)
    })
    children = merge(out)
  }
  setChildren(node, children)
  for (const child of children) {
    if ("children" in child) {
      const [open, close] = edgesOf(child, markers)
      fit(child, open, close, markers)
    }
  }
}

const holdsAttention = (nodes: ReadonlyArray<RootContent>): boolean =>
  nodes.some((node) => isAttention(node) || ("children" in node && holdsAttention(node.children)))

/** Attention left out, all of it or only that inside other attention: new nodes, the given ones untouched. */
const withoutAttention = (nodes: ReadonlyArray<RootContent>, nestedOnly: boolean, inside = false): Array<RootContent> => {
  const out: Array<RootContent> = []
  for (const node of nodes) {
    const kept: Array<RootContent> = !("children" in node)
      ? [node]
      : isAttention(node) && (!nestedOnly || inside)
      ? withoutAttention(node.children, nestedOnly, true)
      : [{ ...node, children: withoutAttention(node.children, nestedOnly, inside || isAttention(node)) } as RootContent]
    for (const next of kept) {
      const previous = out[out.length - 1]
      if (next.type === "text" && previous?.type === "text") out[out.length - 1] = text(previous.value + next.value)
      else out.push(next)
    }
  }
  return out
}

/** A character reference the serializer wrote (`&#x61;`), not text of the page's (written `\&#x61;`). */
const REFERENCES = /(?:^|[^\\])&#x[\dA-F]+;/g

/** How many attention nodes of a paragraph `settle` tries one at a time before it takes them all. */
const SETTLE_TRIES = 8

/**
 * Where `write` still cannot delimit attention (it encodes a neighbouring letter as a character
 * reference, as in `*a**a***` written `*&#x61;__&#x61;__*`), the attention nested in other
 * attention is left out, where it helps one outer node after the other, else all of it, and if
 * that is not enough all attention.
 */
const settle = (node: Parents, write: (root: Root) => string): void => {
  const references = (children: ReadonlyArray<RootContent>) =>
    write({ type: "root", children: [{ type: "paragraph", children: children as Array<PhrasingContent> }] })
      .match(REFERENCES)?.length ?? 0
  for (const child of node.children) {
    if (child.type !== "paragraph" && child.type !== "tableCell") {
      if ("children" in child) settle(child, write)
      continue
    }
    // `fit` answers for attention that holds none: only nesting needs asking the serializer.
    if (!child.children.some((node) => isAttention(node) && holdsAttention(node.children))) continue
    let count = references(child.children)
    if (count === 0) continue
    let children: Array<RootContent> = child.children
    let tries = 0
    for (let i = 0; i < children.length && count > 0 && tries < SETTLE_TRIES; i++) {
      const outer = children[i]
      if (outer === undefined || !isAttention(outer) || !holdsAttention(outer.children)) continue
      tries++
      const attempt = [...children.slice(0, i), ...withoutAttention([outer], true), ...children.slice(i + 1)]
      const fewer = references(attempt)
      if (fewer < count) [children, count] = [attempt, fewer]
    }
    if (count > 0) children = withoutAttention(children, true)
    if (count > 0 && references(children) > 0) children = withoutAttention(children, false)
    setChildren(child, merge(children))
  }
}

/**
 * Makes the mdast of a page read back as the page read, in place, for `write`, a serializer whose
 * delimiters are `markers`.
 */
export const normalize = (root: Root, markers: Markers, write: (root: Root) => string): void => {
  delete root.position
  tidy(root, { emphasis: false, strong: false, delete: false, link: false, oneLine: false })
  // Attention left out may leave whitespace or a break at a block's edge, which `flow` trims.
  fit(root, " ", " ", markers)
  setChildren(root, flow(root.children))
  settle(root, write)
}
