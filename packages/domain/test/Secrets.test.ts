import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { portableSha256Hex, sha256Hex } from "../src/shared/Secrets.js"

describe("sha256Hex", () => {
  it("uses Node's implementation on Node", () => {
    expect(sha256Hex).not.toBe(portableSha256Hex)
  })

  it("gives FIPS 180-2's digests in both implementations", () => {
    for (const hash of [sha256Hex, portableSha256Hex]) {
      expect(hash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
      expect(hash("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
  })

  it("gives the same digest in both implementations, for any text (UTF-8 of every plane, lone surrogates included)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" })), (text) => {
        expect(sha256Hex(text)).toBe(portableSha256Hex(text))
      }),
      { numRuns: 500 }
    )
  })
})
