import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources through the "source" export condition.
export default defineConfig({
  resolve: { conditions: ["source", "module", "node", "import", "default"] },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
