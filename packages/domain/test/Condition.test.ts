import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { ConditionExpr, ConditionOperator } from "../src/sites/Condition.js"
import { conditionProblem, evaluateCondition, parseCondition, printCondition } from "../src/sites/Condition.js"

const parsed = (text: string): ConditionExpr => {
  const result = parseCondition(text)
  if (result._tag === "Left") throw new Error(`refused ${text}: ${result.error}`)
  return result.expr
}
const evaluate = (text: string, claims: unknown) => evaluateCondition(parsed(text), claims)

describe("condition syntax", () => {
  it("accepts the language and prints it canonically", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["visitor.claims.unsigned.beta==true", "visitor.claims.unsigned.beta == true"],
      ["visitor.claims['my-claim'] === 'x'", "visitor.claims[\"my-claim\"] === \"x\""],
      ["visitor.claims[\"plan\"].tier", "visitor.claims.plan.tier"],
      ["((visitor.claims.a))", "visitor.claims.a"],
      ["(visitor.claims.a || visitor.claims.b) || true", "visitor.claims.a || visitor.claims.b || true"],
      ["visitor.claims.a || (visitor.claims.b || true)", "visitor.claims.a || (visitor.claims.b || true)"],
      ["!(visitor.claims.a&&visitor.claims.b)", "!(visitor.claims.a && visitor.claims.b)"],
      ["true || false && false", "true || false && false"],
      ["(true || false) && false", "(true || false) && false"],
      ["visitor.claims.age >= -18.5e1 != false", "visitor.claims.age >= -185 != false"],
      ["['FR', \"DE\"].includes(visitor.claims.country)", "[\"FR\", \"DE\"].includes(visitor.claims.country)"],
      ["visitor.claims.roles.includes('admin')", "visitor.claims.roles.includes(\"admin\")"],
      ["visitor.claims.a.includes", "visitor.claims.a.includes"],
      ["visitor.claims.includes.includes(1)", "visitor.claims.includes.includes(1)"],
      ["(1).includes(1)", "(1).includes(1)"],
      ["'a\\'b\\n\\u00e9\\\\'", "\"a'b\\né\\\\\""],
      ["[] == null", "[] == null"],
      ["!!visitor.claims.x", "!!visitor.claims.x"]
    ]
    for (const [text, canonical] of cases) {
      expect(conditionProblem(text)).toBeUndefined()
      expect(printCondition(parsed(text))).toBe(canonical)
      expect(parsed(canonical)).toStrictEqual(parsed(text))
    }
  })

  it("builds trees with JavaScript's precedence", () => {
    const claim = (name: string): ConditionExpr => ({ _tag: "Claim", path: [name] })
    const binary = (operator: ConditionOperator, left: ConditionExpr, right: ConditionExpr): ConditionExpr => ({
      _tag: "Binary",
      operator,
      left,
      right
    })
    expect(parsed("visitor.claims.a || visitor.claims.b && !visitor.claims.c == 1 < 2")).toStrictEqual(
      binary(
        "||",
        claim("a"),
        binary(
          "&&",
          claim("b"),
          binary(
            "==",
            { _tag: "Not", operand: claim("c") },
            binary("<", { _tag: "Literal", value: 1 }, {
              _tag: "Literal",
              value: 2
            })
          )
        )
      )
    )
    expect(parsed("visitor.claims.unsigned[\"x-y\"].includes(\"z\")")).toStrictEqual({
      _tag: "Includes",
      target: { _tag: "Claim", path: ["unsigned", "x-y"] },
      argument: { _tag: "Literal", value: "z" }
    })
  })

  it("refuses anything else, saying what was found and where", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["", "unexpected end of condition at 0"],
      ["window.location", "unexpected \"window\" at 0"],
      ["alert(1)", "unexpected \"alert\" at 0"],
      ["visitor.claims.a = 1", "unexpected \"=\" at 17"],
      ["visitor.claims.a.startsWith(\"x\")", "unexpected \"(\" at 27"],
      ["visitor.claims.a ==", "unexpected end of condition at 19"],
      ["visitor.claims", "expected a claim name after \"visitor.claims\" at 14"],
      ["visitor.claims.includes(1)", "expected a claim name after \"visitor.claims\" at 14"],
      ["visitor.session.a", "unexpected \"session\" at 8, expected \"claims\""],
      ["visitor.claims[1]", "unexpected \"1\" at 15, expected a quoted claim name"],
      ["`x`", "unexpected \"`\" at 0"],
      ["\"abc", "unterminated string at 0"],
      ["'a\nb'", "unterminated string at 0"],
      ["\"\\x41\"", "invalid escape \"\\\\x\" at 1"],
      ["\"\\u12\"", "invalid escape \"\\\\u\" at 1"],
      ["1e999", "number out of range at 0"],
      ["01", "unexpected \"1\" at 1"],
      ["1abc", "unexpected \"a\" at 1"],
      ["- 1", "unexpected \"-\" at 0"],
      ["(true", "unexpected end of condition at 5, expected \")\""],
      ["visitor.claims.a.includes(1, 2)", "unexpected \",\" at 27, expected \")\""],
      ["visitor.claims.a.includes()", "unexpected \")\" at 26"],
      ["\"abc\".length", "unexpected \"length\" at 6, expected \"includes\""],
      ["[1, 2,]", "unexpected \"]\" at 6"],
      ["true true", "unexpected \"true\" at 5"],
      ["visitor.claims.a & 1", "unexpected \"&\" at 17"],
      ["1 + 1", "unexpected \"+\" at 2"],
      ["undefined", "unexpected \"undefined\" at 0"],
      ["\"é\" #", "unexpected \"#\" at 4"],
      ["\u{1F600}", "unexpected \"\u{1F600}\" at 0"]
    ]
    for (const [text, message] of cases) expect([text, conditionProblem(text)]).toStrictEqual([text, message])
  })

  it("refuses pathological nesting with a message instead of overflowing the stack", () => {
    expect(conditionProblem("(".repeat(100000) + "true" + ")".repeat(100000))).toBe("nesting deeper than 64 at 64")
    expect(conditionProblem("!".repeat(100000) + "true")).toBe("nesting deeper than 64 at 64")
    expect(conditionProblem("[".repeat(100000))).toBe("nesting deeper than 64 at 64")
    expect(conditionProblem("true||".repeat(100000) + "true")).toBe("condition has more than 2048 parts at 6148")
    // 64 levels are allowed.
    expect(conditionProblem("(".repeat(64) + "true" + ")".repeat(64))).toBeUndefined()
    expect(conditionProblem("!".repeat(64) + "true")).toBeUndefined()
  })
})

describe("condition evaluation", () => {
  it("reads signed and unsigned claims", () => {
    const beta = "visitor.claims.unsigned.beta == true"
    expect(evaluate(beta, { unsigned: { beta: true } })).toBe(true)
    expect(evaluate(beta, { unsigned: { beta: "true" } })).toBe(false)
    expect(evaluate(beta, { beta: true })).toBe(false)
    expect(evaluate("visitor.claims.age >= 18", { age: 18 })).toBe(true)
    expect(evaluate("visitor.claims.age >= 18", { age: 17.5 })).toBe(false)
    expect(evaluate("visitor.claims[\"x-y\"] === \"z\"", { "x-y": "z" })).toBe(true)
    expect(evaluate("visitor.claims.plan.tier != \"free\"", { plan: { tier: "pro" } })).toBe(true)
  })

  it("tests membership with includes, on arrays and strings", () => {
    const country = "[\"FR\", \"DE\"].includes(visitor.claims.country)"
    expect(evaluate(country, { country: "FR" })).toBe(true)
    expect(evaluate(country, { country: "IT" })).toBe(false)
    expect(evaluate(country, {})).toBe(false)
    const admin = "visitor.claims.roles.includes(\"admin\")"
    expect(evaluate(admin, { roles: ["reader", "admin"] })).toBe(true)
    expect(evaluate(admin, { roles: ["reader"] })).toBe(false)
    expect(evaluate(admin, { roles: "superadmin" })).toBe(true)
    expect(evaluate(admin, { roles: 5 })).toBe(false)
    expect(evaluate(admin, { roles: { admin: true } })).toBe(false)
    expect(evaluate("\"a1\".includes(1)", {})).toBe(false)
    expect(evaluate("[1, \"2\"].includes(2)", {})).toBe(false)
  })

  it("follows JavaScript's precedence", () => {
    expect(evaluate("true || false && false", {})).toBe(true)
    expect(evaluate("(true || false) && false", {})).toBe(false)
    expect(evaluate("!false == true", {})).toBe(true)
    expect(evaluate("!(false == true)", {})).toBe(true)
    expect(evaluate("1 < 2 == true", {})).toBe(true)
    expect(evaluate("2 < 1 == false && \"b\" > \"a\"", {})).toBe(true)
  })

  it("compares without coercion", () => {
    expect(evaluate("1 == \"1\"", {})).toBe(false)
    expect(evaluate("1 != \"1\"", {})).toBe(true)
    expect(evaluate("1 < \"2\"", {})).toBe(false)
    expect(evaluate("null == false", {})).toBe(false)
    expect(evaluate("null >= 0", {})).toBe(false)
    expect(evaluate("visitor.claims.x == null", { x: null })).toBe(true)
    expect(evaluate("visitor.claims.name", { name: "Ada" })).toBe(true)
    expect(evaluate("visitor.claims.name", { name: "" })).toBe(false)
    expect(evaluate("visitor.claims.count", { count: 0 })).toBe(false)
  })

  it("makes a comparison with a missing claim false, and treats it as falsy elsewhere", () => {
    expect(evaluate("visitor.claims.x == \"a\"", {})).toBe(false)
    expect(evaluate("visitor.claims.x != \"a\"", {})).toBe(false)
    expect(evaluate("visitor.claims.x == null", {})).toBe(false)
    expect(evaluate("visitor.claims.x < 1 || visitor.claims.x >= 1", {})).toBe(false)
    expect(evaluate("visitor.claims.x.y == 1", { x: 3 })).toBe(false)
    expect(evaluate("visitor.claims.x", {})).toBe(false)
    expect(evaluate("!visitor.claims.x", {})).toBe(true)
    expect(evaluate("visitor.claims.a == 1 || visitor.claims.unsigned.b == 2", { unsigned: { b: 2 } })).toBe(true)
    for (const claims of [null, undefined, 7, "x", [], [1]]) expect(evaluate("visitor.claims.x != 1", claims)).toBe(false)
  })

  it("answers false instead of throwing on a tree too deep to walk", () => {
    let deep: ConditionExpr = { _tag: "Literal", value: true }
    for (let i = 0; i < 1_000_000; i++) deep = { _tag: "Not", operand: deep }
    expect(evaluateCondition(deep, {})).toBe(false)
  })

  it("never reads the prototype", () => {
    expect(evaluate("visitor.claims.__proto__ != null", {})).toBe(false)
    expect(evaluate("visitor.claims.constructor", {})).toBe(false)
    expect(evaluate("visitor.claims.a.toString", { a: {} })).toBe(false)
    expect(evaluate("visitor.claims.a.length == 1", { a: "x" })).toBe(false)
    expect(evaluate("visitor.claims[\"__proto__\"] == 1", JSON.parse("{\"__proto__\": 1}"))).toBe(true)
    expect(evaluate("visitor.claims.x == 1", Object.assign(Object.create(null), { x: 1 }))).toBe(true)
  })
})

// Random trees. Numbers are finite, as parsing yields; claim names mix plain names, awkward strings and traps.
const segment = fc.oneof(
  fc.constantFrom("a", "b", "unsigned", "includes", "__proto__", "constructor", "length", "true"),
  fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$]{0,6}$/),
  fc.string({ maxLength: 6 }),
  fc.fullUnicodeString({ maxLength: 4 })
)
const literal = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.fullUnicodeString({ maxLength: 4 }),
  fc.string({ unit: "binary", maxLength: 4 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.boolean(),
  fc.constant(null)
).map((value): ConditionExpr => ({ _tag: "Literal", value }))
const operator = fc.constantFrom<ConditionOperator>("||", "&&", "==", "!=", "===", "!==", "<", "<=", ">", ">=")
const { expr: exprArbitrary } = fc.letrec<{ expr: ConditionExpr }>((tie) => ({
  expr: fc.oneof(
    { maxDepth: 6, depthIdentifier: "condition" },
    literal,
    fc.array(segment, { minLength: 1, maxLength: 4 }).map((path): ConditionExpr => ({ _tag: "Claim", path })),
    fc.array(tie("expr"), { maxLength: 3 }).map((items): ConditionExpr => ({ _tag: "Array", items })),
    tie("expr").map((operand): ConditionExpr => ({ _tag: "Not", operand })),
    fc.record({ operator, left: tie("expr"), right: tie("expr") }).map((b): ConditionExpr => ({
      _tag: "Binary",
      ...b
    })),
    fc.record({ target: tie("expr"), argument: tie("expr") }).map((i): ConditionExpr => ({
      _tag: "Includes",
      ...i
    }))
  )
}))

const tokenSoup = fc
  .tuple(
    fc.array(
      fc.constantFrom(
        "visitor",
        "claims",
        "visitor.claims.a",
        "visitor.claims.unsigned.b",
        ".",
        "a",
        "includes",
        ".includes(",
        "(",
        ")",
        "[",
        "]",
        ",",
        "==",
        "!=",
        "===",
        "!==",
        "<",
        "<=",
        ">",
        ">=",
        "&&",
        "||",
        "!",
        "true",
        "false",
        "null",
        "0",
        "-2.5e3",
        "'x'",
        "\"y\\n\"",
        "\"\\u0041\"",
        "\"",
        "\\",
        "window",
        "=",
        "`",
        "-",
        "e"
      ),
      { maxLength: 30 }
    ),
    fc.constantFrom("", " ")
  )
  .map(([tokens, separator]) => tokens.join(separator))

const roundTrips = (text: string) => {
  const result = parseCondition(text)
  if (result._tag === "Right") {
    const printed = printCondition(result.expr)
    expect(parseCondition(printed)).toStrictEqual({ _tag: "Right", expr: result.expr })
  } else {
    expect(result.error).toMatch(/ at \d+/)
  }
}

describe("condition properties", () => {
  it("prints any tree to a text that parses back to the same tree", () => {
    fc.assert(
      fc.property(exprArbitrary, (expr) => {
        const printed = printCondition(expr)
        const reparsed = parseCondition(printed)
        expect(reparsed).toStrictEqual({ _tag: "Right", expr })
        if (reparsed._tag === "Right") expect(printCondition(reparsed.expr)).toBe(printed)
      }),
      { numRuns: 500 }
    )
  })

  it("never throws on arbitrary text, and what it accepts round-trips", () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), roundTrips), { numRuns: 500 })
    fc.assert(fc.property(fc.fullUnicodeString({ maxLength: 40 }), roundTrips), { numRuns: 500 })
    fc.assert(fc.property(tokenSoup, roundTrips), { numRuns: 2000 })
  })

  it("accepts some token soups (the soup test is not vacuous)", () => {
    const accepted = fc.sample(tokenSoup, { numRuns: 2000, seed: 42 }).filter((text) => parseCondition(text)._tag === "Right")
    expect(accepted.length).toBeGreaterThan(20)
  })

  const claimsArbitrary = fc.oneof(
    fc.jsonValue(),
    fc.object({ key: fc.constantFrom("a", "b", "unsigned", "includes", "length"), maxDepth: 3 })
  )

  it("evaluates any tree against any claims to a boolean, without throwing", () => {
    fc.assert(
      fc.property(exprArbitrary, claimsArbitrary, (expr, claims) => {
        expect(typeof evaluateCondition(expr, claims)).toBe("boolean")
      }),
      { numRuns: 1000 }
    )
  })

  it("gives ||, && and ! their boolean meaning over whole conditions", () => {
    fc.assert(
      fc.property(exprArbitrary, exprArbitrary, claimsArbitrary, (left, right, claims) => {
        const l = evaluateCondition(left, claims)
        const r = evaluateCondition(right, claims)
        expect(evaluateCondition({ _tag: "Binary", operator: "||", left, right }, claims)).toBe(l || r)
        expect(evaluateCondition({ _tag: "Binary", operator: "&&", left, right }, claims)).toBe(l && r)
        expect(evaluateCondition({ _tag: "Not", operand: left }, claims)).toBe(!l)
      }),
      { numRuns: 500 }
    )
  })
})
