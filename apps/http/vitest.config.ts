import { mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

export default mergeConfig(shared, {
  // Every HTTP answer is checked against GitBook's OpenAPI; a file fails listing what does not conform.
  test: { setupFiles: ["./test/setupConformance.ts"] }
})
