import { defineConfig } from "vitest/config"

// One project per package, each with its own vitest.config.ts (over vitest.shared.ts).
export default defineConfig({
  test: { projects: ["packages/*", "apps/*"] }
})
