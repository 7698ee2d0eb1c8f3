import { describe, expect, it } from "vitest"
import * as fc from "fast-check"
import { keepUnchangedBlocks } from "../src/merge.js"

const previous = [
  "Text can be _italic_ or **bold**, and `wandb.init\\(\\)` stays escaped.",
  "",
  "* one",
  "* two",
  "",
  "![](../.gitbook/assets/image%20%2819%29.png)",
  "",
  "",
  "{% hint style=\"info\" %}",
  "A hint\\.",
  "{% endhint %}",
  "",
  "Last words.",
  ""
].join("\n")

describe("keepUnchangedBlocks", () => {
  it("keeps the text of the blocks an edit that wrote the whole page again did not change", () => {
    // The page as an editor writes it back: other emphasis and bullet markers, other escapes, one paragraph edited.
    const next = [
      "Text can be *italic* or __bold__, and `wandb.init\\(\\)` stays escaped.",
      "",
      "- one",
      "- two",
      "",
      "![](../.gitbook/assets/image%20%2819%29.png)",
      "",
      "{% hint style=\"info\" %}",
      "A hint.",
      "{% endhint %}",
      "",
      "Last words, edited.",
      ""
    ].join("\n")
    expect(keepUnchangedBlocks(previous, next)).toBe(previous.replace("Last words.", "Last words, edited."))
  })

  it("a block inserted or removed changes only its place", () => {
    const inserted = previous.replace("Last words.", "A new paragraph.\n\nLast words.")
    expect(keepUnchangedBlocks(previous, inserted)).toBe(inserted)
    const removed = previous.replace("* one\n* two\n\n", "")
    expect(keepUnchangedBlocks(previous, removed)).toBe(removed)
  })

  it("says what the new body says, and is the new body when nothing is in common", () => {
    expect(keepUnchangedBlocks(previous, "Something else.\n")).toBe("Something else.\n")
    expect(keepUnchangedBlocks(previous, previous)).toBe(previous)
    const paragraphs = fc.array(fc.constantFrom("Alpha.", "_Beta_.", "*Beta*.", "* a\n* b", "- a\n- b", "## Head", "Gamma"), {
      maxLength: 8
    })
    fc.assert(
      fc.property(paragraphs, paragraphs, (a, b) => {
        const next = `${b.join("\n\n")}\n`
        const merged = keepUnchangedBlocks(`${a.join("\n\n")}\n`, next)
        // The result says what the new body says, block for block: kept against it, every block is the new body's.
        expect(keepUnchangedBlocks(next, merged)).toBe(next)
      }),
      { numRuns: 200 }
    )
  })
})
