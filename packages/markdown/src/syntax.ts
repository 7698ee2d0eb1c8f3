// A micromark construct for GitBook's tag lines, and the mdast side of it: a tag line becomes an
// `html` node (so an unknown or unpaired tag is kept verbatim), and `parse` pairs the tags it knows
// into custom nodes afterwards. Tag lines may interrupt a paragraph, as HTML blocks do.
import type { Nodes } from "mdast"
import type { CompileContext, Extension as FromMarkdownExtension, Token } from "mdast-util-from-markdown"
import type { Code, Construct, Effects, Extension, State, TokenizeContext } from "micromark-util-types"
import { isTagLine } from "./tags.js"

declare module "micromark-util-types" {
  interface TokenTypeMap {
    gitbookTag: "gitbookTag"
  }
}

const isLineEnd = (code: Code) => code === null || code === -5 || code === -4 || code === -3

function tokenizeTag(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const inside: State = (code) => {
    if (isLineEnd(code)) {
      const token = effects.exit("gitbookTag")
      return isTagLine(this.sliceSerialize(token)) ? ok(code) : nok(code)
    }
    effects.consume(code)
    return inside
  }
  return (code) => {
    effects.enter("gitbookTag")
    effects.consume(code)
    return inside
  }
}

const tagLine: Construct = { name: "gitbookTag", tokenize: tokenizeTag }

/** Tag lines start with `{` (liquid) or `<` (details, summary, figure). */
export const gitbookTags: Extension = { flow: { 123: tagLine, 60: tagLine } }

/** Where a link's or definition's destination sits in the source; `enclosed` for `<…>` destinations. */
export interface Span {
  readonly start: number
  readonly end: number
}

/** The tag lines among the html nodes of a tree, and the destination spans of its links. */
export interface Marks {
  readonly tags: WeakSet<Nodes>
  readonly destinations: WeakMap<Nodes, Span>
}

const top = (context: CompileContext) => context.stack[context.stack.length - 1]

export const gitbookTagsFromMarkdown = (marks: Marks): FromMarkdownExtension => ({
  enter: {
    gitbookTag(this: CompileContext, token: Token) {
      this.enter({ type: "html", value: "" }, token)
    },
    // An empty destination (`[x]()`) has no string: its span is empty, right after the `(`.
    resource(this: CompileContext, token: Token) {
      const node = top(this)
      if (node !== undefined && node.type !== "fragment") {
        const at = token.start.offset + 1
        marks.destinations.set(node, { start: at, end: at })
      }
    }
  },
  exit: {
    gitbookTag(this: CompileContext, token: Token) {
      const node = top(this)
      if (node?.type === "html") {
        node.value = this.sliceSerialize(token)
        marks.tags.add(node)
      }
      this.exit(token)
    },
    // The two below do what mdast-util-from-markdown does, and remember where the url was.
    resourceDestinationString(this: CompileContext, token: Token) {
      const url = this.resume()
      const node = top(this)
      if (node?.type === "link" || node?.type === "image") {
        node.url = url
        marks.destinations.set(node, { start: token.start.offset, end: token.end.offset })
      }
    },
    definitionDestinationString(this: CompileContext, token: Token) {
      const url = this.resume()
      const node = top(this)
      if (node?.type === "definition") {
        node.url = url
        marks.destinations.set(node, { start: token.start.offset, end: token.end.offset })
      }
    }
  }
})
