import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testServer } from "./harness.js"
import { newUser } from "./scenario.js"

// Markdown the parser would spend seconds on (lists opened thousands deep on one line, paragraphs
// dense with emphasis) is refused before it is parsed: a clear 400, nothing written, the event
// loop never held. Found by the fuzz's markdown bombs: 26 s for "- " × 6,000, 42 s for a 560 KB
// paragraph of emphasis, 42 s for list items nested 1,000 deep by indentation (329 s for 2,000).
const bombs: ReadonlyArray<readonly [string, string, string]> = [
  ["lists 6,000 deep on one line", `${"- ".repeat(6_000)}x`, "must not nest lists or quotes more than 64 deep on one line"],
  ["ordered lists 6,000 deep", `${"1. ".repeat(6_000)}x`, "must not nest lists or quotes more than 64 deep on one line"],
  [
    "a 560 KB paragraph of emphasis",
    "**a** *b* _c_ ".repeat(40_000),
    "must not hold more than 5000 emphasis markers (* and _) in one paragraph"
  ],
  [
    "list items nested 900 deep by indentation",
    Array.from({ length: 900 }, (_, i) => `${"  ".repeat(i)}- item`).join("\n"),
    "must not nest lists or quotes more than 64 deep"
  ],
  ["a paragraph of 20,000 links half open", "[a][".repeat(20_000), "must not hold more than 5000 link brackets ([ and ]) in one paragraph"]
]

layer(testServer(MemoryStorage), { excludeTestServices: true, timeout: 120_000 })("markdown bombs", (it) => {
  it.effect("page writes and comments refuse them with 400 and write nothing", () =>
    Effect.gen(function*() {
      const ada = yield* newUser("Ada Bomb")
      const org = yield* call("POST", "/v1/orgs", { token: ada.token, body: { title: "Bombs" } })
      const space = yield* call("POST", `/v1/orgs/${org.body.id}/spaces`, { token: ada.token, body: { title: "Target" } })
      const spaceId = space.body.id as string
      const before = yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: ada.token })
      const cr = yield* call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: ada.token, body: { subject: "Review" } })
      const comments = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/comments`
      for (const [what, markdown, rule] of bombs) {
        const live = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
          token: ada.token,
          body: { changes: [{ operation: "insert_page", title: "Bomb", document: { markdown } }] }
        })
        expect([what, live.status, live.body.error?.message]).toEqual([what, 400, `changes.0.document: ${rule}`])
        // Comments are at most 20,000 characters: the bomb's first 20,000 still nest or crowd.
        const comment = yield* call("POST", comments, { token: ada.token, body: { body: { markdown: markdown.slice(0, 20_000) } } })
        expect([what, comment.status]).toEqual([what, 400])
      }
      const after = yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: ada.token })
      expect(after.body.id).toBe(before.body.id)
      expect((yield* call("GET", comments, { token: ada.token })).body.count).toBe(0)
    }))
})
