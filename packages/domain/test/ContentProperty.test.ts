import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Effect, Either } from "effect"
import {
  applyChanges,
  changedPages,
  type ContentChange,
  type ContentPage,
  emptyContent,
  mergeContent,
  PageId,
  pageTree,
  pathOf,
  type RevisionContent
} from "../src/index.js"

/** A change described by picks among the pages present when it applies, so any sequence makes sense. */
type Intent =
  | { readonly kind: "insert"; readonly title: number; readonly into: number | null; readonly at: number }
  | { readonly kind: "update"; readonly page: number; readonly title: number | null; readonly into: number | null | "keep" }
  | { readonly kind: "delete"; readonly page: number }

const intent: fc.Arbitrary<Intent> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("insert" as const), title: fc.nat(6), into: fc.option(fc.nat(30)), at: fc.nat(3) })
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("update" as const),
      page: fc.nat(30),
      title: fc.option(fc.nat(6)),
      into: fc.oneof(fc.constant("keep" as const), fc.option(fc.nat(30)))
    })
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), page: fc.nat(30) }) }
)

const titles = ["Intro", "Guide", "API", "Setup", "FAQ", "Deploy", "Intro"]

const toChanges = (content: RevisionContent, intents: ReadonlyArray<Intent>): Array<ContentChange> => {
  const ids = Array.from(content.pages.keys()).sort()
  const pick = (n: number) => ids[n % Math.max(ids.length, 1)]
  return intents.flatMap((i): Array<ContentChange> => {
    if (i.kind === "insert") {
      const into = i.into === null || ids.length === 0 ? null : pick(i.into) ?? null
      return [{ operation: "insert_page", title: titles[i.title]!, into, at: 0 }]
    }
    const page = pick(i.page)
    if (page === undefined) return []
    if (i.kind === "delete") return [{ operation: "delete_page", page }]
    return [{
      operation: "update_page",
      page,
      ...(i.title === null ? {} : { title: titles[i.title]! }),
      ...(i.into === "keep" ? {} : { into: i.into === null ? null : pick(i.into) ?? null })
    }]
  })
}

/** Applies changes with ids `${prefix}1`, `${prefix}2`… so the same batch gives the same pages anywhere. */
const apply = (content: RevisionContent, changes: ReadonlyArray<ContentChange>, prefix: string) => {
  let n = 0
  return Effect.runSync(Effect.either(applyChanges(content, changes, {
    now: new Date(0),
    newId: Effect.sync(() => `${prefix}${++n}`),
    storeBlob: () => Effect.succeed("blob"),
    revertBase: Effect.succeed(content),
    revisionContent: () => Effect.succeed(undefined)
  })))
}

const expectValidTree = (content: RevisionContent) => {
  const slugs = new Set<string>()
  for (const page of content.pages.values()) {
    if (page.parentId !== null) expect(content.pages.has(page.parentId)).toBe(true)
    const sibling = `${page.parentId ?? ""}/${page.slug}`
    expect(slugs.has(sibling)).toBe(false)
    slugs.add(sibling)
  }
  const seen: Array<string> = []
  const walk = (nodes: ReturnType<typeof pageTree>) => {
    for (const node of nodes) {
      seen.push(node.page.id)
      expect(node.path).toBe(pathOf(content, node.page))
      walk(node.pages)
    }
  }
  walk(pageTree(content))
  // Every page is reachable from the top: no orphans, no cycles.
  expect(seen.length).toBe(content.pages.size)
}

/** What a page is, without where it sorts among siblings (independent edits pick different keys). */
const comparable = (content: RevisionContent) =>
  Object.fromEntries(Array.from(content.pages.values(), (p: ContentPage) => {
    const { position: _, ...rest } = p
    return [p.id, rest]
  }))

describe("content changes", () => {
  it("two moves that make a loop together are a conflict", () => {
    const base = apply(emptyContent, [{ operation: "insert_page", title: "A" }, { operation: "insert_page", title: "B" }], "s")
    if (Either.isLeft(base)) throw new Error("setup failed")
    const start = base.right.content
    const ours = apply(start, [{ operation: "update_page", page: PageId.make("s1"), into: PageId.make("s2") }], "m")
    const theirs = apply(start, [{ operation: "update_page", page: PageId.make("s2"), into: PageId.make("s1") }], "t")
    if (Either.isLeft(ours) || Either.isLeft(theirs)) throw new Error("moves failed")
    expect(Effect.runSync(mergeContent(start, ours.right.content, theirs.right.content))).toMatchObject({ _tag: "conflicts" })
  })

  it("random batches keep the page tree valid", () => {
    fc.assert(
      fc.property(fc.array(fc.array(intent, { minLength: 1, maxLength: 8 }), { maxLength: 12 }), (batches) => {
        let content = emptyContent
        batches.forEach((batch, b) => {
          const result = apply(content, toChanges(content, batch), `b${b}-`)
          if (Either.isRight(result)) content = result.right.content
          expectValidTree(content)
        })
      }),
      { numRuns: 300 }
    )
  })

  it("merging without conflicts gives the pages of applying both change sets in order", () => {
    fc.assert(
      fc.property(
        fc.array(intent, { minLength: 1, maxLength: 10 }),
        fc.array(intent, { minLength: 1, maxLength: 5 }),
        fc.array(intent, { minLength: 1, maxLength: 5 }),
        (seed, mine, theirs) => {
          const base = apply(emptyContent, toChanges(emptyContent, seed), "s")
          if (Either.isLeft(base)) return
          const start = base.right.content
          const myChanges = toChanges(start, mine)
          const theirChanges = toChanges(start, theirs)
          const ours = apply(start, myChanges, "m")
          const others = apply(start, theirChanges, "t")
          if (Either.isLeft(ours) || Either.isLeft(others)) return
          // A change that leaves a page as it was is invisible to a three-way merge: compare only
          // when every page my changes name did change.
          const changed = Effect.runSync(changedPages(start, ours.right.content))
          const named = myChanges.flatMap((c) => (c.operation === "update_page" || c.operation === "delete_page" ? [c.page] : []))
          if (!named.every((id) => changed.has(id))) return
          const merged = Effect.runSync(mergeContent(start, ours.right.content, others.right.content))
          if (merged._tag === "conflicts") return
          expectValidTree(merged.content)
          const sequential = apply(others.right.content, myChanges, "m")
          if (Either.isLeft(sequential)) return
          expect(comparable(merged.content)).toEqual(comparable(sequential.right.content))
        }
      ),
      { numRuns: 3000 }
    )
  })
})
