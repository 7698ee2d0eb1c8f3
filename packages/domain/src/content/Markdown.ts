/**
 * What a page's markdown says about the page (conventions.md): front matter sets fields, and
 * without a title the first heading becomes it and leaves the body.
 */
export interface MarkdownFields {
  readonly body: string
  readonly title?: string
  readonly description?: string
  readonly icon?: string
  readonly hidden?: boolean
  readonly layout?: Readonly<Record<string, boolean>>
}

const scalar = (raw: string): string | boolean => {
  const value = raw.trim().replace(/^(['"])(.*)\1$/, "$2")
  return value === "true" ? true : value === "false" ? false : value
}

/** Reads `---` front matter of flat keys and `layout:` with `<part>:\n    visible: <bool>` entries. */
const frontMatter = (
  markdown: string
): { readonly fields: Record<string, string | boolean>; readonly layout: Record<string, boolean>; readonly rest: string } => {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(markdown)
  if (match === null) return { fields: {}, layout: {}, rest: markdown }
  const fields: Record<string, string | boolean> = {}
  const layout: Record<string, boolean> = {}
  let section: string | undefined
  let part: string | undefined
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    const entry = /^(\s*)([A-Za-z][\w-]*):\s*(.*)$/.exec(line)
    if (entry === null) continue
    const [, indent = "", key = "", value = ""] = entry
    if (indent.length === 0) {
      section = value === "" ? key : undefined
      part = undefined
      if (value !== "") fields[key] = scalar(value)
    } else if (section === "layout" && value === "") {
      part = key
    } else if (section === "layout" && part !== undefined && key === "visible") {
      layout[part] = scalar(value) === true
    }
  }
  return { fields, layout, rest: markdown.slice(match[0].length) }
}

export const readMarkdown = (markdown: string, hasTitle: boolean): MarkdownFields => {
  const { fields, layout, rest } = frontMatter(markdown)
  let body = rest
  let title: string | undefined
  if (!hasTitle) {
    const heading = /^\s*#\s+(.+?)\s*#*\s*(?:\r?\n|$)/.exec(body)
    if (heading !== null) {
      title = heading[1]
      body = body.slice(heading[0].length).replace(/^\s*\n/, "")
    }
  }
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : undefined)
  return {
    body,
    ...(title !== undefined ? { title } : {}),
    ...(text("description") !== undefined ? { description: text("description") as string } : {}),
    ...(text("icon") !== undefined ? { icon: text("icon") as string } : {}),
    ...(typeof fields["hidden"] === "boolean" ? { hidden: fields["hidden"] } : {}),
    ...(Object.keys(layout).length > 0 ? { layout } : {})
  }
}

/** A slug from a title: lower-case words joined by hyphens. */
export const slugify = (title: string): string => {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100)
    .replace(/-+$/, "")
  return slug === "" ? "page" : slug
}
