import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources through the "octavo-source" export condition, so
// tests run the code as it is, not a stale build. Only "octavo-source" and "node" are added (a name of ours: some libraries ship TypeScript under "source"): vitest passes
// these to Node too, and "import" there would make require() load ESM builds (pg-pool breaks).
export default defineConfig({
  ssr: { resolve: { conditions: ["octavo-source", "node"] } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
