import { afterAll } from "vitest"
import { formatMismatches, takeMismatches } from "./conformance.js"

// Each test file fails at its end with every answer that GitBook's client would not read as GitBook's.
afterAll(() => {
  const mismatches = takeMismatches()
  if (mismatches.length > 0) {
    throw new Error(`${mismatches.length} answer(s) do not conform to GitBook's OpenAPI:\n${formatMismatches(mismatches)}`)
  }
})
