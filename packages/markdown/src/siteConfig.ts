import { Document, isMap, isScalar, isSeq, parseDocument, stringify as stringifyYaml, type YAMLMap, type YAMLSeq } from "yaml"

// A site's Git Sync configuration (`docs.yaml`, GitBook's `GitSyncSiteConfig`) as YAML text: read into plain data,
// and changed node by node so that what nobody changed (comments, order, quoting, nodes Octavo does not model) stays.

/** The file's data, or the YAML error as one sentence. */
export const readSiteConfigYaml = (text: string): { readonly data: unknown } | { readonly error: string } => {
  const doc = parseDocument(text, { uniqueKeys: true })
  const error = doc.errors[0]
  if (error !== undefined) return { error: `is not valid YAML: ${error.message.split("\n")[0]}` }
  return { data: doc.toJS({ maxAliasCount: 100 }) as unknown }
}

/** One change of the structure's nodes, each found by its `key`. */
export type SiteConfigEdit =
  /** Sets a field of a node (`undefined` takes it out); `key` null is the `site` mapping itself. */
  | { readonly kind: "set"; readonly key: string | null; readonly field: string; readonly value: unknown }
  | { readonly kind: "remove"; readonly key: string }
  /** Adds a node at the end of the children of `parent` (null: the structure's top level). */
  | { readonly kind: "append"; readonly parent: string | null; readonly node: Readonly<Record<string, unknown>> }

/** The node of `key`, the list it is in, and the node whose `children` that list is (undefined at the top level). */
const find = (
  list: YAMLSeq,
  key: string,
  owner?: YAMLMap
): { readonly list: YAMLSeq; readonly node: YAMLMap; readonly owner: YAMLMap | undefined } | undefined => {
  for (const item of list.items) {
    if (!isMap(item)) continue
    if (item.get("key") === key) return { list, node: item, owner }
    const children = item.get("children", true)
    if (isSeq(children)) {
      const found = find(children, key, item)
      if (found !== undefined) return found
    }
  }
  return undefined
}

const structureOf = (doc: Document): YAMLSeq | undefined => {
  const site = doc.get("site", true)
  if (!isMap(site)) return undefined
  const structure = site.get("structure", true)
  return isSeq(structure) ? structure : undefined
}

type Range = readonly [number, number, number]
const rangeOf = (node: unknown): Range | undefined =>
  node !== null && typeof node === "object" && "range" in node ? ((node as { range?: Range | null }).range ?? undefined) : undefined

/** A replacement of the text from `start` to `end`. */
interface Splice {
  readonly start: number
  readonly end: number
  readonly text: string
}

/**
 * The text with the edits made, or the text itself when there are none: each edit replaces only the lines of what it
 * changes (a field's lines, a node's lines, lines added after the last of a list), so that every other line keeps its
 * spelling (folded text, quotes, comments, blank lines). Nodes an edit names that the text lacks are passed over.
 */
export const patchSiteConfig = (text: string, edits: ReadonlyArray<SiteConfigEdit>): string => {
  if (edits.length === 0) return text
  const doc = parseDocument(text)
  const structure = structureOf(doc)
  if (structure === undefined) return text
  const lineStart = (at: number) => {
    let i = at
    while (i > 0 && text[i - 1] !== "\n") i--
    return i
  }
  const lineEnd = (at: number) => {
    if (at > 0 && text[at - 1] === "\n") return at
    const newline = text.indexOf("\n", at)
    return newline < 0 ? text.length : newline + 1
  }
  const yamlOf = (value: unknown) => stringifyYaml(value, { lineWidth: 0 })
  /** Lines of YAML text, the first after `first`, the others after `rest`. */
  const indent = (yaml: string, first: string, rest: string) =>
    yaml.replace(/\n$/, "").split("\n").map((line, i) => `${i === 0 ? first : line === "" ? "" : rest}${line}`).join("\n") + "\n"
  const splices: Array<Splice> = []
  const removed: Array<readonly [number, number]> = []

  /** The lines of a map's pair: from its key's line to the end of its value. */
  const pairSpan = (map: YAMLMap, field: string) => {
    const pair = map.items.find((item) => isScalar(item.key) && item.key.value === field)
    const keyRange = isScalar(pair?.key) ? rangeOf(pair.key) : undefined
    if (pair === undefined || keyRange === undefined) return undefined
    const valueEnd = rangeOf(pair.value)?.[1] ?? keyRange[1]
    return { keyStart: keyRange[0], start: lineStart(keyRange[0]), end: lineEnd(valueEnd) }
  }
  /** The column of a map's keys, and the text before its first key on that key's line (`- ` for a list's item). */
  const keyColumn = (map: YAMLMap) => {
    const first = map.items[0]
    const at = isScalar(first?.key) ? rangeOf(first.key)?.[0] : undefined
    return at === undefined ? 0 : at - lineStart(at)
  }
  const setField = (map: YAMLMap, field: string, value: unknown) => {
    const span = pairSpan(map, field)
    const column = keyColumn(map)
    const lines = value === undefined ? "" : indent(yamlOf({ [field]: value }), " ".repeat(column), " ".repeat(column))
    if (span !== undefined) {
      // The first key of a list's item shares its line with the item's dash: that prefix stays.
      const prefix = text.slice(span.start, span.keyStart)
      splices.push({ start: span.start, end: span.end, text: lines === "" ? "" : prefix + lines.slice(column) })
      return
    }
    if (value === undefined) return
    // A new field goes above the node's children, so that a node's own fields stay together; else at its end.
    const children = field === "children" ? undefined : pairSpan(map, "children")
    if (children !== undefined && children.keyStart - children.start === column) {
      splices.push({ start: children.start, end: children.start, text: lines })
      return
    }
    const last = map.items.at(-1)
    const end = lineEnd(rangeOf(last?.value)?.[1] ?? rangeOf(last?.key)?.[1] ?? rangeOf(map)?.[1] ?? text.length)
    splices.push({ start: end, end, text: lines })
  }
  const appendTo = (owner: YAMLMap | undefined, field: string, list: YAMLSeq, nodes: ReadonlyArray<Readonly<Record<string, unknown>>>) => {
    const last = list.items.at(-1)
    const lastRange = rangeOf(last)
    if (last !== undefined && lastRange !== undefined && !list.flow) {
      const dashLine = lineStart(lastRange[0])
      const dashColumn = text.slice(dashLine, lastRange[0]).indexOf("-")
      const pad = " ".repeat(Math.max(0, dashColumn))
      const end = lineEnd(lastRange[1])
      splices.push({ start: end, end, text: nodes.map((node) => indent(yamlOf(node), `${pad}- `, `${pad}  `)).join("") })
      return
    }
    // An empty list (`children: []`): the field is written again as a block list.
    if (owner !== undefined) setField(owner, field, [...(list.toJSON() as Array<unknown>), ...nodes])
  }

  // Nodes added to one list are written together, in the order given; nodes taken out of one list too.
  const appended = new Map<string | null, Array<Readonly<Record<string, unknown>>>>()
  const taken = new Map<YAMLSeq, { readonly owner: YAMLMap | undefined; readonly nodes: ReadonlyArray<YAMLMap> }>()
  for (const edit of edits) {
    if (edit.kind === "set") {
      const target = edit.key === null ? doc.get("site", true) : find(structure, edit.key)?.node
      if (isMap(target)) setField(target, edit.field, edit.value)
    } else if (edit.kind === "remove") {
      const found = find(structure, edit.key)
      if (found === undefined) continue
      taken.set(found.list, { owner: found.owner, nodes: [...(taken.get(found.list)?.nodes ?? []), found.node] })
    } else {
      appended.set(edit.parent, [...(appended.get(edit.parent) ?? []), edit.node])
    }
  }
  for (const [list, { nodes, owner }] of taken) {
    const site = doc.get("site", true)
    const holder = owner ?? (isMap(site) ? site : undefined)
    const field = owner === undefined ? "structure" : "children"
    const span = holder === undefined ? undefined : pairSpan(holder, field)
    if (nodes.length === list.items.length && holder !== undefined && span !== undefined) {
      // A list left empty is written `[]`, as GitBook writes one.
      removed.push([span.start, span.end])
      setField(holder, field, [])
      continue
    }
    for (const node of nodes) {
      const range = rangeOf(node)
      if (range === undefined) continue
      const start = lineStart(range[0])
      const end = lineEnd(range[1])
      removed.push([start, end])
      splices.push({ start, end, text: "" })
    }
  }
  for (const [parentKey, nodes] of appended) {
    if (parentKey === null) {
      const site = doc.get("site", true)
      appendTo(isMap(site) ? site : undefined, "structure", structure, nodes)
      continue
    }
    const parent = find(structure, parentKey)?.node
    if (parent === undefined) continue
    const children = parent.get("children", true)
    if (isSeq(children)) appendTo(parent, "children", children, nodes)
    else setField(parent, "children", nodes)
  }
  // Edits inside a node taken out are dropped with it; the others are made from the end, so offsets hold.
  const inside = (s: Splice, [a, b]: readonly [number, number]) =>
    s.start >= a && s.end <= b && !(s.start === a && s.end === b) && !(s.start === s.end && (s.start === a || s.start === b))
  const kept = splices.filter((s) => !removed.some((range) => inside(s, range)))
  let out = text
  for (const splice of kept.sort((a, b) => b.start - a.start || b.end - a.end)) {
    out = `${out.slice(0, splice.start)}${splice.text}${out.slice(splice.end)}`
  }
  return out
}

/** The text of a configuration with no structure yet, for a repository that has none. */
export const emptySiteConfig = (title: string): string => {
  const doc = new Document({ site: { title, structure: [] } })
  return doc.toString({ lineWidth: 0 })
}
