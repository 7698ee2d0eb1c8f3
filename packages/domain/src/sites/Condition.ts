// The condition language of adaptive content (conventions-2 §1.4): a JavaScript-like subset over
// `visitor.claims.<path>`, literals, `== != === !== < <= > >= && || !`, parentheses and `.includes()`.
//
// Grammar, with JavaScript's precedence (loosest first):
//   or         := and ("||" and)*
//   and        := equality ("&&" equality)*
//   equality   := relational (("==" | "!=" | "===" | "!==") relational)*
//   relational := unary (("<" | "<=" | ">" | ">=") unary)*
//   unary      := "!" unary | postfix
//   postfix    := primary ("." "includes" "(" or ")")*
//   primary    := number | string | "true" | "false" | "null" | "[" (or ("," or)*)? "]" | "(" or ")" | claim
//   claim      := "visitor" "." "claims" segment+          (a bare `visitor.claims` is refused)
//   segment    := "." name | "[" string "]"               (name: [A-Za-z_$][A-Za-z0-9_$]*)
// Numbers are decimal, with an optional `-` written directly before the digits, a fraction and an exponent.
// Strings take single or double quotes and the escapes \\ \' \" \n \r \t \uXXXX.
// `.includes` followed by `(` is a call; anywhere else it is a claim name (`visitor.claims.a.includes`).

/** The comparison and logical operators of a condition. */
export type ConditionOperator = "||" | "&&" | "==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">="

/** A condition's syntax tree. Parentheses leave no node: the printer puts back those the precedence needs. */
export type ConditionExpr =
  | { readonly _tag: "Literal"; readonly value: string | number | boolean | null }
  | { readonly _tag: "Array"; readonly items: ReadonlyArray<ConditionExpr> }
  | { readonly _tag: "Claim"; readonly path: ReadonlyArray<string> }
  | { readonly _tag: "Not"; readonly operand: ConditionExpr }
  | {
    readonly _tag: "Binary"
    readonly operator: ConditionOperator
    readonly left: ConditionExpr
    readonly right: ConditionExpr
  }
  | { readonly _tag: "Includes"; readonly target: ConditionExpr; readonly argument: ConditionExpr }

/** What `parseCondition` answers: the tree, or a message naming what was found and at which offset. */
export type ParsedCondition =
  | { readonly _tag: "Right"; readonly expr: ConditionExpr }
  | { readonly _tag: "Left"; readonly error: string }

/** How deeply parentheses, brackets, `!` and `.includes(` arguments may nest. */
export const MaxConditionNesting = 64

/**
 * How many nodes a tree may have. A condition of at most 1024 characters never comes near; the cap keeps the
 * recursion of printing and evaluating bounded when a longer text is parsed anyway.
 */
export const MaxConditionNodes = 2048

// ---------------------------------------------------------------------------------------------------------------
// Lexer: reads one token at a given offset, so the parser reports the first problem in reading order.

type Punct = "(" | ")" | "[" | "]" | "," | "." | "!" | ConditionOperator

type Token =
  | { readonly kind: "number"; readonly value: number; readonly start: number; readonly end: number }
  | { readonly kind: "string"; readonly value: string; readonly start: number; readonly end: number }
  | { readonly kind: "name"; readonly value: string; readonly start: number; readonly end: number }
  | { readonly kind: "punct"; readonly value: Punct; readonly start: number; readonly end: number }
  | { readonly kind: "end"; readonly start: number; readonly end: number }

class ConditionSyntaxError {
  constructor(readonly message: string) {}
}

const fail = (message: string): never => {
  throw new ConditionSyntaxError(message)
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9"
const isNameStart = (c: string | undefined) =>
  c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || c === "$")
const isNamePart = (c: string | undefined) => isNameStart(c) || isDigit(c)
const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v"
const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c)

/** The character (a whole code point) at `at`, quoted for a message. */
const found = (text: string, at: number) => JSON.stringify(String.fromCodePoint(text.codePointAt(at)!))

const puncts: ReadonlyArray<Punct> = [
  "===",
  "!==",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "<",
  ">",
  "!",
  "(",
  ")",
  "[",
  "]",
  ",",
  "."
]

const lexNumber = (text: string, start: number): Token => {
  let at = start
  if (text[at] === "-") at++
  if (text[at] === "0") at++
  else while (isDigit(text[at])) at++
  if (text[at] === "." && isDigit(text[at + 1])) {
    at++
    while (isDigit(text[at])) at++
  }
  if (text[at] === "e" || text[at] === "E") {
    let digits = at + 1
    if (text[digits] === "+" || text[digits] === "-") digits++
    if (isDigit(text[digits])) {
      at = digits
      while (isDigit(text[at])) at++
    }
  }
  // `01`, `1abc`: JavaScript refuses a digit or a name glued to a number, and so do we.
  if (isNamePart(text[at])) fail(`unexpected ${found(text, at)} at ${at}`)
  const value = Number(text.slice(start, at))
  if (!Number.isFinite(value)) fail(`number out of range at ${start}`)
  return { kind: "number", value, start, end: at }
}

const lexString = (text: string, start: number): Token => {
  const quote = text[start]
  let at = start + 1
  let value = ""
  for (;;) {
    const c = text[at]
    if (c === undefined || c === "\n" || c === "\r") return fail(`unterminated string at ${start}`)
    if (c === quote) return { kind: "string", value, start, end: at + 1 }
    if (c !== "\\") {
      value += c
      at++
      continue
    }
    const e = text[at + 1]
    switch (e) {
      case "\\":
      case "'":
      case "\"":
        value += e
        at += 2
        break
      case "n":
        value += "\n"
        at += 2
        break
      case "r":
        value += "\r"
        at += 2
        break
      case "t":
        value += "\t"
        at += 2
        break
      case "u": {
        const hex = text.slice(at + 2, at + 6)
        if (hex.length !== 4 || ![...hex].every(isHex)) fail(`invalid escape ${JSON.stringify("\\u")} at ${at}`)
        value += String.fromCharCode(parseInt(hex, 16))
        at += 6
        break
      }
      case undefined:
        return fail(`unterminated string at ${start}`)
      default:
        return fail(`invalid escape ${JSON.stringify("\\" + String.fromCodePoint(text.codePointAt(at + 1)!))} at ${at}`)
    }
  }
}

const lexAt = (text: string, from: number): Token => {
  let start = from
  while (isSpace(text[start])) start++
  const c = text[start]
  if (c === undefined) return { kind: "end", start, end: start }
  if (isDigit(c) || (c === "-" && isDigit(text[start + 1]))) return lexNumber(text, start)
  if (c === "\"" || c === "'") return lexString(text, start)
  if (isNameStart(c)) {
    let end = start + 1
    while (isNamePart(text[end])) end++
    return { kind: "name", value: text.slice(start, end), start, end }
  }
  for (const p of puncts) {
    if (text.startsWith(p, start)) return { kind: "punct", value: p, start, end: start + p.length }
  }
  return fail(`unexpected ${found(text, start)} at ${start}`)
}

// ---------------------------------------------------------------------------------------------------------------
// Parser: recursive descent; recursion only where nesting is counted, so depth stays below MaxConditionNesting.

const parse = (text: string): ConditionExpr => {
  let token = lexAt(text, 0)
  let depth = 0
  let nodes = 0

  const advance = () => {
    token = lexAt(text, token.end)
  }
  const unexpected = (expected?: string): never =>
    fail(
      `unexpected ${token.kind === "end" ? "end of condition" : JSON.stringify(text.slice(token.start, token.end))} at ${token.start}${
        expected ? `, expected ${expected}` : ""
      }`
    )
  const isPunct = (t: Token, value: Punct) => t.kind === "punct" && t.value === value
  const expectPunct = (value: Punct) => {
    if (!isPunct(token, value)) unexpected(JSON.stringify(value))
    advance()
  }
  const node = <E extends ConditionExpr>(expr: E): E => {
    if (++nodes > MaxConditionNodes) fail(`condition has more than ${MaxConditionNodes} parts at ${token.start}`)
    return expr
  }
  const nested = <A>(at: number, inner: () => A): A => {
    if (++depth > MaxConditionNesting) fail(`nesting deeper than ${MaxConditionNesting} at ${at}`)
    const result = inner()
    depth--
    return result
  }

  const binary = (operators: ReadonlyArray<ConditionOperator>, operand: () => ConditionExpr) => (): ConditionExpr => {
    let left = operand()
    while (token.kind === "punct" && (operators as ReadonlyArray<Punct>).includes(token.value)) {
      const operator = token.value as ConditionOperator
      advance()
      const right = operand()
      left = node({ _tag: "Binary", operator, left, right })
    }
    return left
  }

  const claim = (): ConditionExpr => {
    advance()
    expectPunct(".")
    if (!(token.kind === "name" && token.value === "claims")) unexpected("\"claims\"")
    const claimsEnd = token.end
    advance()
    const path: Array<string> = []
    for (;;) {
      if (isPunct(token, ".")) {
        const name = lexAt(text, token.end)
        if (name.kind !== "name") break
        // `.includes(` is the call, not a claim named includes.
        if (name.value === "includes" && isPunct(lexAt(text, name.end), "(")) break
        path.push(name.value)
        token = name
        advance()
      } else if (isPunct(token, "[")) {
        advance()
        const key = token
        if (key.kind !== "string") return unexpected("a quoted claim name")
        path.push(key.value)
        advance()
        expectPunct("]")
      } else break
    }
    if (path.length === 0) {
      fail(`expected a claim name after "visitor.claims" at ${claimsEnd}`)
    }
    return node({ _tag: "Claim", path })
  }

  const primary = (): ConditionExpr => {
    const t = token
    switch (t.kind) {
      case "number":
      case "string":
        advance()
        return node({ _tag: "Literal", value: t.value })
      case "name":
        if (t.value === "true" || t.value === "false") {
          advance()
          return node({ _tag: "Literal", value: t.value === "true" })
        }
        if (t.value === "null") {
          advance()
          return node({ _tag: "Literal", value: null })
        }
        if (t.value === "visitor") return claim()
        return unexpected()
      case "punct":
        if (t.value === "(") {
          return nested(t.start, () => {
            advance()
            const inner = or()
            expectPunct(")")
            return inner
          })
        }
        if (t.value === "[") {
          return nested(t.start, () => {
            advance()
            const items: Array<ConditionExpr> = []
            if (!isPunct(token, "]")) {
              items.push(or())
              while (isPunct(token, ",")) {
                advance()
                items.push(or())
              }
            }
            expectPunct("]")
            return node({ _tag: "Array", items })
          })
        }
        return unexpected()
      case "end":
        return unexpected()
    }
  }

  const postfix = (): ConditionExpr => {
    let target = primary()
    while (isPunct(token, ".")) {
      advance()
      if (!(token.kind === "name" && token.value === "includes")) unexpected("\"includes\"")
      advance()
      const open = token
      if (!isPunct(open, "(")) unexpected("\"(\"")
      const argument = nested(open.start, () => {
        advance()
        const inner = or()
        expectPunct(")")
        return inner
      })
      target = node({ _tag: "Includes", target, argument })
    }
    return target
  }

  const unary = (): ConditionExpr => {
    if (isPunct(token, "!")) {
      return nested(token.start, () => {
        advance()
        const operand = unary()
        return node({ _tag: "Not", operand })
      })
    }
    return postfix()
  }

  const relational = binary(["<", "<=", ">", ">="], unary)
  const equality = binary(["==", "!=", "===", "!=="], relational)
  const and = binary(["&&"], equality)
  const or = binary(["||"], and)

  const expr = or()
  if (token.kind !== "end") unexpected()
  return expr
}

/**
 * Parses a condition. Never throws: a syntax error is a `Left` whose message says what was found and where, as a
 * UTF-16 offset into the text (`unexpected "(" at 12`). Nesting beyond `MaxConditionNesting` and trees beyond
 * `MaxConditionNodes` are refused the same way; time is linear in the text's length.
 */
export const parseCondition = (text: string): ParsedCondition => {
  try {
    return { _tag: "Right", expr: parse(text) }
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return { _tag: "Left", error: error.message }
    throw error
  }
}

/** The syntax problem of a condition, or `undefined` when it parses: the check made on write (400). */
export const conditionProblem = (text: string): string | undefined => {
  const parsed = parseCondition(text)
  return parsed._tag === "Left" ? parsed.error : undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Printer

const precedence = (expr: ConditionExpr): number => {
  switch (expr._tag) {
    case "Binary":
      switch (expr.operator) {
        case "||":
          return 1
        case "&&":
          return 2
        case "==":
        case "!=":
        case "===":
        case "!==":
          return 3
        default:
          return 4
      }
    case "Not":
      return 5
    case "Includes":
      return 6
    case "Literal":
      // `(1).includes(x)`: a number before `.includes` reads better, and safer, in parentheses.
      return typeof expr.value === "number" ? 5.5 : 7
    default:
      return 7
  }
}

const namePattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/

const quote = (value: string) => {
  let out = "\""
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!
    const code = value.charCodeAt(i)
    if (c === "\"" || c === "\\") out += "\\" + c
    else if (c === "\n") out += "\\n"
    else if (c === "\r") out += "\\r"
    else if (c === "\t") out += "\\t"
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) {
      out += "\\u" + code.toString(16).padStart(4, "0")
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const low = value.charCodeAt(i + 1)
      if (low >= 0xdc00 && low <= 0xdfff) {
        out += c + value[i + 1]!
        i++
      } else out += "\\u" + code.toString(16)
    } else if (code >= 0xd800 && code <= 0xdfff) out += "\\u" + code.toString(16)
    else out += c
  }
  return out + "\""
}

const printLiteral = (value: string | number | boolean | null): string =>
  typeof value === "string"
    ? quote(value)
    : typeof value === "number"
    ? (Object.is(value, -0) ? "-0" : String(value))
    : String(value)

const print = (expr: ConditionExpr, least: number): string => {
  const text = printBare(expr)
  return precedence(expr) < least ? `(${text})` : text
}

const printBare = (expr: ConditionExpr): string => {
  switch (expr._tag) {
    case "Literal":
      return printLiteral(expr.value)
    case "Array":
      return `[${expr.items.map((item) => print(item, 1)).join(", ")}]`
    case "Claim":
      return "visitor.claims" +
        expr.path.map((segment) => namePattern.test(segment) ? `.${segment}` : `[${quote(segment)}]`).join("")
    case "Not":
      return `!${print(expr.operand, 5)}`
    case "Binary": {
      const p = precedence(expr)
      return `${print(expr.left, p)} ${expr.operator} ${print(expr.right, p + 1)}`
    }
    case "Includes":
      return `${print(expr.target, 6)}.includes(${print(expr.argument, 1)})`
  }
}

/**
 * The canonical text of a condition: double quotes, one space around binary operators, only the parentheses the
 * precedence needs. `parseCondition(printCondition(e))` gives back a tree equal to `e` for any tree whose numbers are
 * finite (parsing never yields others).
 */
export const printCondition = (expr: ConditionExpr): string => print(expr, 0)

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

/** A claim the visitor does not have. */
const Missing: unique symbol = Symbol("missing claim")

const hasOwn = Object.prototype.hasOwnProperty

const lookup = (claims: unknown, path: ReadonlyArray<string>): unknown => {
  let value = claims
  for (const segment of path) {
    // Own properties only: `__proto__`, `constructor` or `toString` are missing unless the claims hold them.
    if (value === null || typeof value !== "object" || !hasOwn.call(value, segment)) return Missing
    value = (value as Record<string, unknown>)[segment]
  }
  return value === undefined ? Missing : value
}

const truthy = (value: unknown): boolean => value !== Missing && Boolean(value)

const compare = (operator: ConditionOperator, left: unknown, right: unknown): boolean => {
  if (left === Missing || right === Missing) return false
  switch (operator) {
    case "==":
    case "===":
      return left === right
    case "!=":
    case "!==":
      return left !== right
    default: {
      const comparable = (typeof left === "number" && typeof right === "number") ||
        (typeof left === "string" && typeof right === "string")
      if (!comparable) return false
      const [a, b] = [left as number | string, right as number | string]
      return operator === "<" ? a < b : operator === "<=" ? a <= b : operator === ">" ? a > b : a >= b
    }
  }
}

const includes = (target: unknown, argument: unknown): boolean => {
  if (target === Missing || argument === Missing) return false
  if (Array.isArray(target)) return target.includes(argument)
  if (typeof target === "string") return typeof argument === "string" && target.includes(argument)
  return false
}

const evaluate = (expr: ConditionExpr, claims: unknown): unknown => {
  switch (expr._tag) {
    case "Literal":
      return expr.value
    case "Array":
      return expr.items.map((item) => evaluate(item, claims))
    case "Claim":
      return lookup(claims, expr.path)
    case "Not":
      return !truthy(evaluate(expr.operand, claims))
    case "Includes":
      return includes(evaluate(expr.target, claims), evaluate(expr.argument, claims))
    case "Binary": {
      const left = evaluate(expr.left, claims)
      if (expr.operator === "||") return truthy(left) ? left : evaluate(expr.right, claims)
      if (expr.operator === "&&") return truthy(left) ? evaluate(expr.right, claims) : left
      return compare(expr.operator, left, evaluate(expr.right, claims))
    }
  }
}

/**
 * Whether a visitor with these claims sees the content. `visitor.claims.a.b` reads own properties of the claims
 * (never the prototype). Following §1.4, "an error or a missing claim evaluates to false":
 * - a comparison or `.includes()` with a missing claim on either side is false (so `visitor.claims.x != "a"` is
 *   false without `x`), while `&&`, `||`, `!` and the final result treat a missing claim as falsy, like JavaScript's
 *   `undefined` (so `!visitor.claims.x` is true without `x`, and `a == 1 || b == 2` still works without `a`);
 * - `==` and `!=` are `===` and `!==` (no coercion: `1 == "1"` is false);
 * - `< <= > >=` compare two numbers or two strings, and are false otherwise;
 * - `.includes(x)` tests membership in an array, or a substring when both sides are strings, and is false otherwise;
 * - the result is JavaScript's truthiness of the value. Never throws: a failure of any kind is false.
 */
export const evaluateCondition = (expr: ConditionExpr, claims: unknown): boolean => {
  try {
    return truthy(evaluate(expr, claims))
  } catch {
    return false
  }
}
