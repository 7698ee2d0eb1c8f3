// The raw HTML a page's markdown holds, read as browsers read it and cleaned by an allowlist: what
// GitBook's editor writes (figures, tables, cards, icons, buttons, aligned blocks) keeps its elements
// and `data-*` attributes; scripts and styles go with their content, event handlers, inline styles and
// `javascript:` URLs go; an element not on the list gives way to its content, so no text is lost.
import type { Root } from "hast"
import { raw } from "hast-util-raw"
import { defaultSchema, sanitize, type Schema } from "hast-util-sanitize"

type Attributes = NonNullable<Schema["attributes"]>

/** GitHub's schema restricts `className` per element to the classes its own markdown writes; any class may be written here. */
const withoutClassRules = (attributes: Attributes): Attributes =>
  Object.fromEntries(
    Object.entries(attributes).map(([tag, list]) => [
      tag,
      (list ?? []).filter((entry) => !(Array.isArray(entry) && entry[0] === "className"))
    ])
  )

const base = withoutClassRules(defaultSchema.attributes ?? {})

export const schema: Schema = {
  ...defaultSchema,
  tagNames: [
    ...(defaultSchema.tagNames ?? []),
    ...["figure", "figcaption", "mark", "u", "small", "abbr", "cite", "dfn", "time", "caption", "colgroup", "col", "center"],
    ...["article", "aside", "header", "footer", "address", "hgroup", "bdi", "bdo", "wbr"]
  ],
  attributes: {
    ...base,
    "*": [...(base["*"] ?? []), "className", "role", "ariaLabel", "ariaHidden", "data*"],
    img: [...(base["img"] ?? []), "loading"],
    col: ["width", "span"],
    colgroup: ["width", "span"],
    source: ["srcSet", "media", "type"]
  },
  protocols: {
    ...defaultSchema.protocols,
    href: ["http", "https", "mailto", "tel"],
    src: ["http", "https"],
    srcSet: ["http", "https"]
  },
  strip: ["script", "style", "template", "noscript"],
  // Anchors written in a page (`<a id="…">`) are linked to as written: ids are kept, not prefixed.
  clobber: [],
  allowComments: false,
  allowDoctypes: false
}

/** Past this nesting, markup is an attack more than a page: read and cleaned recursively, it would exhaust the stack. */
const MAX_NESTING = 200

const deeperThan = (tree: Root, limit: number): boolean => {
  const stack: Array<{ readonly node: Root["children"][number] | Root; readonly depth: number }> = [{ node: tree, depth: 0 }]
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if (step.depth > limit) return true
    if ("children" in step.node) { for (const child of step.node.children) stack.push({ node: child, depth: step.depth + 1 }) }
  }
  return false
}

/** The raw HTML nodes of a rendered page parsed in place: an element opened in one HTML block and closed in a later one holds the markdown between them. Undefined when the markup nests too deep to read safely. */
export const parseRawHtml = (tree: Root): Root | undefined => {
  try {
    const parsed = raw(tree) as Root
    return deeperThan(parsed, MAX_NESTING) ? undefined : parsed
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/** The tree with only what `schema` allows. */
export const clean = (tree: Root): Root => sanitize(tree, schema) as Root
