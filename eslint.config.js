// ESLint for the whole workspace: typescript-eslint's recommended rules (syntactic, no type information, so the run stays
// fast) and the architecture of STYLE.md, held by eslint-plugin-boundaries. Formatting is dprint's job (dprint.json).
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath, URL } from "node:url"
import js from "@eslint/js"
import boundaries from "eslint-plugin-boundaries"
import { defineConfig } from "eslint/config"
import tseslint from "typescript-eslint"

// The contexts in their fixed order, the same in every package split by context (packages/domain/src, packages/adapters-*/src
// and apps/http/src): a file in <package>/src/<context>/ may import its own context and the contexts before it in the same
// package, never one after it, nor the files directly under <package>/src, which compose the contexts. The order is the
// domain's list of contexts (packages/domain/src/Services.ts): each entry names the folder whose index.ts exports it.
const domainSource = fileURLToPath(new URL("packages/domain/src/", import.meta.url))
const listed = /const contexts = \[([^\]]*)\]/.exec(readFileSync(`${domainSource}Services.ts`, "utf8"))?.[1] ?? ""
const folderExporting = (name) =>
  readdirSync(domainSource, { withFileTypes: true }).find((entry) =>
    entry.isDirectory() && existsSync(`${domainSource}${entry.name}/index.ts`) &&
    new RegExp(`export const ${name}\\b`).test(readFileSync(`${domainSource}${entry.name}/index.ts`, "utf8"))
  )?.name
export const CONTEXTS = listed.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "").map((name) => {
  const folder = folderExporting(name)
  if (folder === undefined) throw new Error(`eslint.config.js: no folder of packages/domain/src exports ${name}, listed in Services.ts`)
  return folder
})
if (CONTEXTS[0] !== "shared" || CONTEXTS.length < 2) {
  throw new Error(`eslint.config.js: the contexts read from packages/domain/src/Services.ts start with shared: ${CONTEXTS.join(", ")}`)
}
// The folders of one package that belong to no context and take the rank of `shared`: apps/http/src/health, the health
// check. Any other folder not in CONTEXTS is reported.
const SHARED_PEERS = { "domain-context": [], "adapter-context": [], "app-context": ["health"] }

// The only libraries the domain's sources may import: the domain knows no HTTP, no SQL and no Node (@noble/hashes hashes
// synchronously in plain JavaScript, where Web Crypto answers a promise).
const DOMAIN_LIBRARIES = ["effect", "@octavo/markdown", "@noble/hashes"]
// What the domain's tests may use besides (and Node's own modules).
const TEST_LIBRARIES = ["@effect/vitest", "vitest", "fast-check"]

const element = (type) => ({ element: { type } })
const library = (source) => ({ module: { origin: "external", source } })
const anyLibrary = { module: { origin: "external" } }
const nodeBuiltin = { module: { origin: "core" } }
const domain = [element("domain"), element("domain-context")]
const adapters = [element("adapter"), element("adapter-context"), element("adapter-test")]
const app = [element("app"), element("app-context")]
const fromAdapter = "{{ from.element.captured.adapter }}"
const sameAdapter = (type) => ({ element: { type, captured: { adapter: fromAdapter } } })
const compositionRoot = { element: { type: "app" }, file: { categories: "composition-root" } }

// The element type of a package's context folders, with what else its captures must match (for an adapter, the same adapter).
const contextElements = [
  { type: "domain-context", package: "packages/domain", same: {} },
  { type: "adapter-context", package: `packages/adapters-${fromAdapter}`, same: { adapter: fromAdapter } },
  { type: "app-context", package: "apps/http", same: {} }
]

// From context N, contexts 0..N of the same package (the shared peers with `shared`).
const contextOrder = contextElements.flatMap(({ type, same }) => {
  const ranks = [[CONTEXTS[0], ...SHARED_PEERS[type]], ...CONTEXTS.slice(1).map((context) => [context])]
  return ranks.map((rank, index) => ({
    from: { element: { type, captured: { context: rank } } },
    allow: { to: { element: { type, captured: { ...same, context: ranks.slice(0, index + 1).flat() } } } }
  }))
})

// A folder not in CONTEXTS (nor a shared peer) may import nothing until it is given its place in the order.
const unknownContexts = contextElements.map(({ type, package: pkg }) => ({
  from: { element: { type, captured: { context: `!{${[...CONTEXTS, ...SHARED_PEERS[type]].join(",")}}` } } },
  disallow: { to: { module: { origin: "*" } } },
  message:
    `${pkg}/src/{{ from.element.captured.context }}/ is not in the contexts' order (packages/domain/src/Services.ts): give it its place there`
}))

// Read in order; the last policy that matches a dependency decides, and one that none matches is an error.
const policies = [
  // A relative import that resolves to no file is tsc's to report, not this rule's.
  { allow: { to: { module: { origin: "local" }, file: { path: null } } } },

  // Every package split by context: the order of its contexts.
  ...contextOrder,

  // packages/markdown: pure functions over the unified ecosystem; it knows nothing of the domain.
  { from: element("markdown"), allow: { to: [element("markdown"), anyLibrary] } },

  // packages/domain
  { from: element("domain-context"), allow: { to: [element("markdown"), ...DOMAIN_LIBRARIES.map(library)] } },
  // The files directly under packages/domain/src compose the contexts: they may import anything in the domain.
  { from: element("domain"), allow: { to: [...domain, element("markdown"), ...DOMAIN_LIBRARIES.map(library)] } },
  {
    from: element("domain-test"),
    allow: {
      to: [...domain, element("domain-test"), element("markdown"), nodeBuiltin, ...[...DOMAIN_LIBRARIES, ...TEST_LIBRARIES].map(library)]
    }
  },

  // packages/adapters-*: the domain and their own libraries; never the app nor another adapter. Their contexts import one
  // another in order (above); the files directly under src/ and the tests import anything of their own adapter.
  { from: adapters, allow: { to: [...domain, nodeBuiltin, anyLibrary] } },
  { from: [element("adapter"), element("adapter-test")], allow: { to: [sameAdapter("adapter"), sameAdapter("adapter-context")] } },
  { from: element("adapter-test"), allow: { to: [sameAdapter("adapter-test"), element("domain-test")] } },

  // apps/http: the domain and any library; only the composition root, the tests and the benchmarks reach the adapters. Its
  // contexts import one another in order (above); the files directly under src/ import anything of the app. The markdown
  // package's pure functions are presentation too: the reader renders pages to HTML with them.
  { from: app, allow: { to: [...domain, element("markdown"), nodeBuiltin, anyLibrary] } },
  { from: element("app"), allow: { to: app } },
  {
    from: element("app-test"),
    allow: { to: [...domain, element("domain-test"), ...adapters, ...app, element("app-test"), nodeBuiltin, anyLibrary] }
  },

  // Last of the allowances: a context folder out of the order is reported, whatever it imports.
  ...unknownContexts,

  // The same boundaries by package name, should a workspace package ever be left unresolved (and so taken for a library).
  {
    from: [...domain, element("domain-test")],
    disallow: { to: library(["@effect/platform*", "@effect/sql*", "@octavo/adapters-*", "@octavo/http"]) }
  },
  { from: adapters, disallow: { to: library("@octavo/http") } },
  { from: app, disallow: { to: library("@octavo/adapters-*") } },
  // Last, so that it wins over the rule above.
  { from: compositionRoot, allow: { to: [element("adapter"), library("@octavo/adapters-*")] } }
]

export default defineConfig(
  {
    ignores: ["**/node_modules/", "**/dist/", "**/coverage/", "**/*.d.ts", "**/.octavo/"]
  },
  {
    files: ["**/*.{ts,mts,cts,js,mjs,cjs}"],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed bindings are unused on purpose, as tsc's noUnusedLocals and noUnusedParameters already accept.
      "@typescript-eslint/no-unused-vars": ["error", {
        argsIgnorePattern: "^_",
        varsIgnorePattern: "^_",
        destructuredArrayIgnorePattern: "^_",
        caughtErrorsIgnorePattern: "^_"
      }]
    }
  },
  {
    files: ["packages/*/{src,test}/**/*.ts", "apps/*/{src,test,bench}/**/*.ts"],
    plugins: { boundaries },
    settings: {
      // "octavo-source" first: workspace packages resolve to their TypeScript sources, as in vitest, whether dist/ is built or not.
      "import/resolver": { typescript: { conditionNames: ["octavo-source", "types", "import", "node", "default"] } },
      // Re-exports and import() cross a boundary as much as an import does.
      "boundaries/dependency-nodes": ["import", "export", "dynamic-import"],
      "boundaries/elements": [
        { type: "domain-context", pattern: "packages/domain/src/*", capture: ["context"], partialMatch: false },
        { type: "domain", pattern: "packages/domain/src", partialMatch: false },
        { type: "domain-test", pattern: "packages/domain/test", partialMatch: false },
        { type: "markdown", pattern: "packages/markdown/src", partialMatch: false },
        { type: "adapter-context", pattern: "packages/adapters-*/src/*", capture: ["adapter", "context"], partialMatch: false },
        { type: "adapter", pattern: "packages/adapters-*/src", capture: ["adapter"], partialMatch: false },
        { type: "adapter-test", pattern: "packages/adapters-*/test", capture: ["adapter"], partialMatch: false },
        // apps/http/src/server: the server's parts by concern (body, error bodies, headers, rate limits, jobs), composed by Server.ts.
        { type: "app", pattern: "apps/http/src/server", partialMatch: false },
        { type: "app-context", pattern: "apps/http/src/*", capture: ["context"], partialMatch: false },
        { type: "app", pattern: "apps/http/src", partialMatch: false },
        { type: "app-test", pattern: "apps/http/{test,bench}", partialMatch: false }
      ],
      // The composition root: the files of apps/http/src that choose, configure and build the adapters (storage and Node's).
      "boundaries/files": [{ category: "composition-root", pattern: "apps/http/src/{Storage,main,Server,Config,index}.ts" }]
    },
    rules: {
      "boundaries/dependencies": ["error", { default: "disallow", checkAllOrigins: true, checkUnknownLocals: true, policies }]
    }
  }
)
