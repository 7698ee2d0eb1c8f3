import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { ContentPage } from "../src/content/Page.js"
import { byPosition } from "../src/content/Resolve.js"
import { makeSiblingPages } from "../src/content/Siblings.js"
import { PageId } from "../src/shared/Ids.js"

const ids = ["a", "b", "c", "d", "e", "f", "g", "h"].map((id) => PageId.make(id))
const parents = [null, ...ids.slice(0, 3)]

const pageOf = (id: PageId, parentId: PageId | null, position: string, slug: string): ContentPage => ({
  id,
  kind: "document",
  title: slug,
  slug,
  parentId,
  position,
  markdown: "",
  hidden: false,
  noIndex: false,
  noRobotsIndex: false,
  createdAt: new Date(0),
  updatedAt: new Date(0)
})

type Step =
  | { readonly kind: "set"; readonly id: number; readonly parent: number; readonly position: string; readonly slug: string }
  | { readonly kind: "remove"; readonly id: number }
  | { readonly kind: "ask" }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("set" as const),
      id: fc.nat(ids.length - 1),
      parent: fc.nat(parents.length - 1),
      // Few keys and slugs, so that siblings share them.
      position: fc.constantFrom("V", "W", "X", "k"),
      slug: fc.constantFrom("intro", "guide", "api")
    })
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), id: fc.nat(ids.length - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("ask" as const) }) }
)

/** What the index answers, found by reading every page. */
const scanned = (pages: ReadonlyMap<PageId, ContentPage>, parentId: PageId | null, except: PageId | undefined) =>
  Array.from(pages.values()).filter((p) => p.parentId === parentId && p.id !== except).sort(byPosition)

const below = (pages: ReadonlyMap<PageId, ContentPage>, id: PageId) =>
  Array.from(pages.keys()).filter((candidate) => {
    for (let current: PageId | null = candidate; current !== null; current = pages.get(current)?.parentId ?? null) {
      if (current === id) return true
    }
    return false
  })

describe("sibling pages", () => {
  it("answer as a scan of every page would, through any sequence of sets and removals", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        // Pages form a tree: a page's parent is one of the first three, and never itself or below it.
        const siblings = makeSiblingPages(new Map())
        for (const s of steps) {
          if (s.kind === "set") {
            const id = ids[s.id] as PageId
            const parentId = parents[s.parent] ?? null
            if (parentId !== null && (parentId === id || below(siblings.pages, id).includes(parentId))) continue
            siblings.set(pageOf(id, parentId, s.position, s.slug))
          } else if (s.kind === "remove") {
            siblings.remove(ids[s.id] as PageId)
          } else {
            for (const parentId of parents) {
              for (const except of [undefined, ...ids]) {
                const expected = scanned(siblings.pages, parentId, except)
                expect(siblings.countUnder(parentId, except)).toBe(expected.length)
                for (let index = -1; index <= expected.length; index++) {
                  expect(siblings.childAt(parentId, index, except)).toBe(expected[index])
                }
                for (const slug of ["intro", "guide", "api"]) {
                  expect(siblings.slugTaken(parentId, slug, except)).toBe(expected.some((p) => p.slug === slug))
                }
                for (const position of ["V", "W", "X", "k"]) {
                  expect(siblings.positionTaken(parentId, position, except)).toBe(expected.some((p) => p.position === position))
                }
              }
            }
            for (const id of ids) expect(siblings.subtreeOf(id)).toEqual(below(siblings.pages, id))
          }
        }
      }),
      { numRuns: 500 }
    )
  })

  it("start from a revision's pages and keep them apart from it", () => {
    const initial = new Map([
      [ids[0] as PageId, pageOf(ids[0] as PageId, null, "W", "intro")],
      [ids[1] as PageId, pageOf(ids[1] as PageId, null, "V", "guide")],
      [ids[2] as PageId, pageOf(ids[2] as PageId, ids[0] as PageId, "V", "api")]
    ])
    const siblings = makeSiblingPages(initial)
    expect([siblings.childAt(null, 0)?.id, siblings.childAt(null, 1)?.id]).toEqual(["b", "a"])
    expect(siblings.subtreeOf(ids[0] as PageId)).toEqual(["a", "c"])
    siblings.remove(ids[0] as PageId)
    expect(siblings.countUnder(null)).toBe(1)
    expect(initial.size).toBe(3)
  })
})
