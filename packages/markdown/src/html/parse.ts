import type { Root } from "hast"
import { fromHtml } from "hast-util-from-html"
import { fromParse5 } from "hast-util-from-parse5"
import { type DefaultTreeAdapterMap, defaultTreeAdapter, parse } from "parse5"

type ParentNode = DefaultTreeAdapterMap["parentNode"]

/** How deep the fallback parse nests elements: past any real page, within what the tree conversion's recursion survives. */
const MAX_PARSE_DEPTH = 256

/** `parent`, or its ancestor at MAX_PARSE_DEPTH - 1 when it is that deep or deeper. */
const shallowEnough = (parent: ParentNode): ParentNode => {
  const chain: Array<ParentNode> = []
  for (let node: ParentNode | null = parent; node !== null; node = "parentNode" in node ? node.parentNode : null) chain.push(node)
  return chain.length > MAX_PARSE_DEPTH ? chain[chain.length - MAX_PARSE_DEPTH] ?? parent : parent
}

/**
 * parse5's tree, but an element that would nest past MAX_PARSE_DEPTH becomes a sibling at that
 * depth (as browsers cap their DOM): its text is kept, its structure is given up.
 */
const cappedTreeAdapter: typeof defaultTreeAdapter = {
  ...defaultTreeAdapter,
  appendChild: (parent, child) => defaultTreeAdapter.appendChild(shallowEnough(parent), child),
  insertBefore: (parent, child, reference) => {
    const capped = shallowEnough(parent)
    if (capped === parent) defaultTreeAdapter.insertBefore(parent, child, reference)
    else defaultTreeAdapter.appendChild(capped, child)
  }
}

/**
 * An HTML document as hast. hast-util-from-parse5 recurses once per level of nesting, so a page
 * nested thousands deep (an attack more than a page) exhausts the stack: that page is parsed again
 * with its nesting capped.
 */
export const parseHtml = (html: string): Root => {
  try {
    return fromHtml(html)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    // fromParse5 turns a document into a root, as fromHtml says.
    return fromParse5(parse(html, { treeAdapter: cappedTreeAdapter, scriptingEnabled: false })) as Root
  }
}
