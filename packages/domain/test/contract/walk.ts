import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Keyset, Page, PageRequest } from "../../src/index.js"

/** Walks every page of a list, checking page sizes, and returns all items in order. */
export const walk = <A, E, R>(fetch: (request: PageRequest) => Effect.Effect<Page<A>, E, R>, limit: number) =>
  Effect.gen(function*() {
    const items: Array<A> = []
    let after: Option.Option<Keyset> = Option.none()
    for (let guard = 0; guard < 1000; guard++) {
      const page = yield* fetch({ limit, after })
      expect(page.items.length).toBeLessThanOrEqual(limit)
      items.push(...page.items)
      if (Option.isNone(page.next)) return items
      after = page.next
    }
    throw new Error("paging did not end")
  })
