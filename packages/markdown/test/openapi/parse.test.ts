import { describe, expect, it } from "vitest"
import { MAX_YAML_ALIASES, parseYamlOrJson } from "../../src/index.js"

const aliases = (count: number) => `a: &x v\nb:\n${Array.from({ length: count }, () => "  - *x").join("\n")}\n`

describe("parseYamlOrJson", () => {
  it("reads JSON as JSON and YAML 1.2 as YAML", () => {
    expect(parseYamlOrJson("{\"openapi\": \"3.1.0\"}")).toEqual({ ok: true, format: "json", value: { openapi: "3.1.0" } })
    expect(parseYamlOrJson("openapi: 3.1.0\ninfo:\n  title: T\n")).toEqual({
      ok: true,
      format: "yaml",
      value: { openapi: "3.1.0", info: { title: "T" } }
    })
    // YAML 1.2: `yes` and `on` are strings, not booleans (1.1 read them as true).
    expect(parseYamlOrJson("a: yes\nb: on\n")).toMatchObject({ ok: true, value: { a: "yes", b: "on" } })
    // A flow mapping is YAML even though it opens like JSON.
    expect(parseYamlOrJson("{a: 1}")).toEqual({ ok: true, format: "yaml", value: { a: 1 } })
    expect(parseYamlOrJson("\uFEFF{\"a\": 1}")).toEqual({ ok: true, format: "json", value: { a: 1 } })
  })

  it(`allows ${MAX_YAML_ALIASES} aliases and refuses ${MAX_YAML_ALIASES + 1}`, () => {
    expect(parseYamlOrJson(aliases(MAX_YAML_ALIASES)).ok).toBe(true)
    expect(parseYamlOrJson(aliases(MAX_YAML_ALIASES + 1))).toEqual({
      ok: false,
      format: "yaml",
      errors: [`YAML: more than ${MAX_YAML_ALIASES} aliases`]
    })
  })

  it("refuses an expansion bomb of few aliases", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for (let i = 1; i < 9; i++)
      levels.push(`l${i}: &l${i} [${Array.from({ length: 10 }, () => (i === 1 ? "*a" : `*l${i - 1}`)).join(", ")}]`)
    const result = parseYamlOrJson(`${levels.join("\n")}\n`)
    expect(result).toEqual({ ok: false, format: "yaml", errors: [`YAML: more than ${MAX_YAML_ALIASES} aliases`] })
  })

  it("names what is wrong: bad JSON, bad YAML, duplicate keys, several documents", () => {
    const json = parseYamlOrJson("{\"a\": [1, }")
    expect(json.ok).toBe(false)
    expect(!json.ok && json.format).toBe("json")
    expect(!json.ok && json.errors[0]).toMatch(/^JSON: /)
    expect(parseYamlOrJson("a: 1\na: 2\n")).toEqual({
      ok: false,
      format: "yaml",
      errors: ["YAML: Map keys must be unique at line 2, column 1"]
    })
    expect(parseYamlOrJson("a:\n  b: 1\n  c: {d: 1, d: 2}\n  b: 2\n")).toEqual({
      ok: false,
      format: "yaml",
      // Each mapping before those inside it.
      errors: ["YAML: Map keys must be unique at line 4, column 3", "YAML: Map keys must be unique at line 3, column 13"]
    })
    const many = parseYamlOrJson("a: 1\n---\nb: 2\n")
    expect(!many.ok && many.errors[0]).toMatch(/multiple documents/)
  })

  it("keeps __proto__ as a plain key and survives deep nesting", () => {
    const parsed = parseYamlOrJson("__proto__: {polluted: 1}\n")
    expect(parsed.ok && Object.getPrototypeOf(parsed.value)).toBe(Object.prototype)
    expect(parsed.ok && Object.keys(parsed.value as object)).toEqual(["__proto__"])
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`
    expect(() => parseYamlOrJson(deep)).not.toThrow()
    const deepYaml = `${"- ".repeat(50_000)}x\n`
    expect(() => parseYamlOrJson(deepYaml)).not.toThrow()
  })
})
