import { type Document, isScalar, LineCounter, parseDocument, visit } from "yaml"

/** The most aliases a YAML text may use (`*name`), and so the most its expansion may grow by. */
export const MAX_YAML_ALIASES = 100

export type TextFormat = "json" | "yaml"

export type Parsed =
  | { readonly ok: true; readonly format: TextFormat; readonly value: unknown }
  | { readonly ok: false; readonly format: TextFormat; readonly errors: ReadonlyArray<string> }

const failed = (format: TextFormat, errors: ReadonlyArray<string>): Parsed => ({ ok: false, format, errors })

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error))

// The library's messages end with a snippet of the text under a caret: the first line says it all.
const firstLine = (message: string): string => message.split("\n")[0]?.replace(/:$/, "") ?? message

/**
 * Keys used twice in a mapping, in one pass: the library's own check (`uniqueKeys`) compares every key with
 * every other one, which takes minutes on a mapping of 100,000 keys.
 */
const duplicateKeys = (document: Document.Parsed, lines: LineCounter): Array<string> => {
  const found: Array<string> = []
  visit(document, {
    Map: (_, map) => {
      const seen = new Set<unknown>()
      for (const pair of map.items) {
        // Only scalar keys can be told apart cheaply; OpenAPI has no other.
        if (!isScalar(pair.key)) continue
        const key = pair.key.value
        if (!seen.has(key)) seen.add(key)
        else {
          const at = lines.linePos(pair.key.range?.[0] ?? 0)
          found.push(`YAML: Map keys must be unique at line ${at.line}, column ${at.col}`)
        }
      }
    }
  })
  return found
}

const parseYaml = (text: string): Parsed => {
  try {
    const lines = new LineCounter()
    // YAML 1.2's core schema knows no language-specific tags; unknown tags stay plain scalars.
    const document = parseDocument(text, { version: "1.2", schema: "core", uniqueKeys: false, merge: false, lineCounter: lines })
    if (document.errors.length > 0) return failed("yaml", document.errors.map((error) => `YAML: ${firstLine(error.message)}`))
    const duplicates = duplicateKeys(document, lines)
    if (duplicates.length > 0) return failed("yaml", duplicates)
    // The library counts the anchored node as a use: 101 lets the text use an anchor 100 times.
    const value: unknown = document.toJS({ maxAliasCount: MAX_YAML_ALIASES + 1 })
    return { ok: true, format: "yaml", value }
  } catch (error) {
    const message = reason(error)
    return failed("yaml", [
      /alias count/i.test(message) ? `YAML: more than ${MAX_YAML_ALIASES} aliases` : `YAML: ${firstLine(message)}`
    ])
  }
}

/**
 * Parses a document written as JSON or as YAML 1.2 (core schema, at most MAX_YAML_ALIASES aliases, unique keys).
 * A text that opens with `{` or `[` is JSON; should JSON refuse it and YAML read it (a YAML flow mapping), it is YAML.
 * Never throws: deep nesting that exhausts the stack is a failure like any other.
 */
export const parseYamlOrJson = (text: string): Parsed => {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (/^\s*[[{]/.test(body)) {
    try {
      return { ok: true, format: "json", value: JSON.parse(body) as unknown }
    } catch (error) {
      const asYaml = parseYaml(body)
      return asYaml.ok ? asYaml : failed("json", [`JSON: ${reason(error)}`])
    }
  }
  return parseYaml(body)
}
