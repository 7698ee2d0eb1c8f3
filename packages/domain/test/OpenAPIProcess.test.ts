import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { MAX_PROCESS_ERRORS, processSpecText } from "../src/index.js"

// Processing of OpenAPI texts (conventions-2.md §5): internal references resolve as JSON pointers.

const escape = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1")

/** Every path to a node of a JSON value, as the tokens leading to it. */
const pathsOf = (value: unknown, prefix: ReadonlyArray<string> = []): Array<ReadonlyArray<string>> => {
  const children = Array.isArray(value)
    ? value.map((child, i) => [String(i), child] as const)
    : typeof value === "object" && value !== null
    ? Object.entries(value)
    : []
  return [prefix, ...children.flatMap(([key, child]) => pathsOf(child, [...prefix, key]))]
}

const document = (components: unknown, refs: ReadonlyArray<string>) =>
  JSON.stringify({
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    components: { schemas: { data: components } },
    paths: { "/x": { get: { responses: Object.fromEntries(refs.map((ref, i) => [String(200 + i), { $ref: ref }])) } } }
  })

// Keys with `/`, `~`, `%` and spaces, which pointers must escape.
const key = fc.string({ unit: fc.constantFrom("a", "/", "~", "0", "1", "%", " ", "é"), minLength: 1, maxLength: 4 })
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, fc.integer(), fc.string(), tie("object"), tie("array")),
  object: fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  array: fc.array(tie("value"), { maxLength: 3 })
})).object

describe("processing an OpenAPI text", () => {
  it.prop("a reference to any node of the document resolves, escaped or percent-encoded", [json], ([data]) => {
    const refs = pathsOf(data).flatMap((path) => {
      const pointer = ["", "components", "schemas", "data", ...path].map(escape).join("/")
      return [`#${pointer}`, `#${encodeURIComponent(pointer).replaceAll("%2F", "/")}`]
    })
    expect(processSpecText(document(data, refs))).toEqual({ ok: true, format: "json" })
  })

  it.prop("a reference past a leaf, or to a key that is not there, does not", [json, key], ([data, missing]) => {
    const paths = pathsOf(data).filter((path) => {
      let node: unknown = data
      for (const token of path) node = (node as Record<string, unknown>)[token]
      return typeof node !== "object" || node === null || !Object.hasOwn(node, missing)
    })
    const refs = paths.map((path) => `#${["", "components", "schemas", "data", ...path, missing].map(escape).join("/")}`)
    const result = processSpecText(document(data, refs))
    expect(result.ok ? 0 : result.count).toBe(refs.length)
    expect(result.ok ? [] : result.errors).toHaveLength(Math.min(refs.length, MAX_PROCESS_ERRORS))
  })
})

describe("processing a YAML text with aliases", () => {
  const aliased = (uses: number) =>
    [
      "openapi: 3.0.0",
      "info: {title: T, version: '1'}",
      "paths: {}",
      `shared: &shared [${Array(1000).fill("{k: 1}").join(", ")}, {$ref: '#/nowhere'}]`,
      ...Array.from({ length: uses }, (_, i) => `use${i}: *shared`)
    ].join("\n")

  it("judges an aliased node once, whatever the number of aliases to it", () => {
    // The shared node holds one unresolved reference: it is one error, not one per alias.
    expect(processSpecText(aliased(99))).toEqual({
      ok: false,
      errors: [{ code: "UNRESOLVED_REF", message: "$ref \"#/nowhere\" at /shared/1000 does not resolve" }],
      count: 1
    })
  })
})
