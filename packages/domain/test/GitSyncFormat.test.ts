import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Effect } from "effect"
import {
  type ContentPage,
  contentTypeOf,
  exportFiles,
  type File,
  FileId,
  importFiles,
  PageId,
  pageTree,
  relativePath,
  resolvePath,
  type RevisionContent,
  sameContent
} from "../src/index.js"
import { defaultGitbookConfig, readGitbookConfig, slugify } from "@octavo/markdown"

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const at = new Date("2026-01-01T00:00:00.000Z")

// One sample of every block kind the markdown package knows, in the form it writes them.
const blocks: ReadonlyArray<string> = [
  "A paragraph with **bold**, *italic*, ~~struck~~ and `code`.",
  "## A heading",
  "### A smaller heading",
  "1. one\n2. two",
  "* alpha\n* beta\n  * nested",
  "- [ ] to do\n- [x] done",
  "***",
  "> A quote.",
  "{% hint style=\"warning\" %}\nCareful.\n{% endhint %}",
  "```js\nconst x = 1\n```",
  "$$\nx^2\n$$",
  "<details>\n\n<summary>More</summary>\n\nHidden text.\n\n</details>",
  "{% tabs %}\n{% tab title=\"First\" %}\nOne.\n{% endtab %}\n\n{% tab title=\"Second\" %}\nTwo.\n{% endtab %}\n{% endtabs %}",
  "| a | b |\n| - | - |\n| 1 | 2 |",
  "{% embed url=\"https://example.com/video\" %}",
  "Math inline $$a+b$$ here."
]

interface Shape {
  readonly title: string
  readonly kind: "document" | "group" | "link"
  readonly body: ReadonlyArray<number>
  readonly fields: {
    readonly description?: string | undefined
    readonly icon?: string | undefined
    readonly hidden: boolean
    readonly noIndex: boolean
    readonly noRobotsIndex: boolean
    readonly layout?: ContentPage["layout"] | undefined
    readonly cover?: { readonly yPos?: number | undefined } | undefined
  }
  readonly pages: ReadonlyArray<Shape>
}

const words = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "zeta"]
const title = fc.tuple(fc.constantFrom(...words), fc.constantFrom(...words), fc.constantFrom("", "!", " *x*", " & co")).map(
  ([a, b, c]) => `${a[0]?.toUpperCase()}${a.slice(1)} ${b}${c}`
)
const layout = fc.option(
  fc.record({
    cover: fc.boolean(),
    title: fc.boolean(),
    description: fc.boolean(),
    tableOfContents: fc.boolean(),
    outline: fc.boolean(),
    pagination: fc.boolean(),
    coverSize: fc.constantFrom("hero", "full")
  }, { requiredKeys: [] }).filter((l) => Object.keys(l).length > 0),
  { nil: undefined }
)
const fields = fc.record({
  description: fc.option(fc.constantFrom("A description.", "Ünïcode: ✓ and \"quotes\""), { nil: undefined }),
  icon: fc.option(fc.constantFrom("rocket", "book-open"), { nil: undefined }),
  hidden: fc.boolean(),
  noIndex: fc.boolean(),
  noRobotsIndex: fc.boolean(),
  layout,
  cover: fc.option(fc.record({ yPos: fc.option(fc.integer({ min: -200, max: 200 }), { nil: undefined }) }), { nil: undefined })
})
const body = fc.array(fc.nat(blocks.length - 1), { maxLength: 4 })

const document = (depth: number): fc.Arbitrary<Shape> =>
  fc.record({
    title,
    kind: fc.constant("document" as const),
    body,
    fields,
    pages: depth === 0 ? fc.constant([]) : fc.array(document(depth - 1), { maxLength: 3 })
  })
const link = fc.record({
  title,
  kind: fc.constant("link" as const),
  body: fc.constant([]),
  fields: fc.constant({ hidden: false, noIndex: false, noRobotsIndex: false }),
  pages: fc.constant([])
})
const group = fc.record({
  title,
  kind: fc.constant("group" as const),
  body: fc.constant([]),
  fields: fc.constant({ hidden: false, noIndex: false, noRobotsIndex: false }),
  pages: fc.array(document(1), { minLength: 1, maxLength: 3 })
})
const space = fc.record({
  first: document(2),
  rest: fc.array(fc.oneof(document(2), link), { maxLength: 3 }),
  groups: fc.array(group, { maxLength: 2 }),
  files: fc.array(fc.uint8Array({ minLength: 1, maxLength: 64 }), { minLength: 1, maxLength: 4 }),
  include: fc.boolean()
})

const includeBytes = encoder.encode("---\ntitle: Shared\n---\n\nShared text.\n")

type SpaceShape = typeof space extends fc.Arbitrary<infer T> ? T : never

/** A space from a shape: slugs unique among siblings, links to other pages and files, an include in the first page. */
const build = (shape: SpaceShape): RevisionContent => {
  let n = 0
  const pages = new Map<PageId, ContentPage>()
  const files = new Map<FileId, File>()
  const fileIds = shape.files.map((bytes, i) => {
    const id = FileId.make(`file${i}`)
    files.set(id, {
      id,
      name: `image-${i}.png`,
      contentType: "image/png",
      size: bytes.length,
      blobKey: Array.from(bytes).join("."),
      createdAt: new Date(at.getTime() + i)
    })
    return id
  })
  if (shape.include) {
    const id = FileId.make("include")
    files.set(id, {
      id,
      name: "shared.md",
      contentType: "text/markdown",
      size: includeBytes.length,
      blobKey: "include",
      git: { oid: "", path: ".gitbook/includes/shared.md" },
      createdAt: new Date(at.getTime() + 100)
    })
  }
  const allIds: Array<PageId> = []
  const add = (node: Shape, parentId: PageId | null, index: number, taken: Set<string>, first: boolean) => {
    const id = PageId.make(`page${n++}`)
    allIds.push(id)
    let slug = slugify(node.title)
    for (let k = 2; taken.has(slug) || slug === "readme"; k++) slug = `${slugify(node.title)}-${k}`
    if (first) slug = slugify(node.title)
    taken.add(slug)
    const cover = node.fields.cover === undefined
      ? undefined
      : {
        file: fileIds[index % fileIds.length] as string,
        ...(node.fields.cover.yPos !== undefined ? { yPos: node.fields.cover.yPos } : {})
      }
    const parts = node.body.map((i) => blocks[i] as string)
    if (node.kind === "document") {
      parts.push(`See [a file](/files/${fileIds[index % fileIds.length]}) and ![an image](/files/${fileIds[0]}).`)
      if (allIds.length > 1) {
        parts.push(`Back to [the first page](/pages/${allIds[0]}#${slugify(node.title)}).`)
        parts.push(`{% content-ref url="/pages/${allIds[0]}" %}\n[First](/pages/${allIds[0]})\n{% endcontent-ref %}`)
        parts.push(`{% file src="/files/${fileIds[0]}" %}\nA caption.\n{% endfile %}`)
      }
      if (first && shape.include) parts.push("{% include \".gitbook/includes/shared.md\" %}")
    }
    pages.set(id, {
      id,
      kind: node.kind,
      title: node.title,
      slug,
      parentId,
      position: `a${String(index).padStart(3, "0")}`,
      markdown: node.kind === "document" && parts.length > 0 ? `${parts.join("\n\n")}\n` : "",
      ...(node.kind === "link" ? { href: `https://example.com/${slug}` } : {}),
      ...(node.kind === "document" && node.fields.description !== undefined ? { description: node.fields.description } : {}),
      ...(node.kind === "document" && node.fields.icon !== undefined ? { icon: node.fields.icon } : {}),
      hidden: node.fields.hidden,
      noIndex: node.fields.noIndex,
      noRobotsIndex: node.fields.noRobotsIndex,
      ...(node.kind === "document" && node.fields.layout !== undefined ? { layout: node.fields.layout } : {}),
      ...(node.kind === "document" && cover !== undefined ? { cover } : {}),
      createdAt: at,
      updatedAt: at
    })
    const inner = new Set<string>()
    node.pages.forEach((child, i) => add(child, id, i, inner, false))
  }
  const top = new Set<string>()
  ;[shape.first, ...shape.rest, ...shape.groups].forEach((node, i) => add(node, null, i, top, i === 0))
  return { pages, files }
}

const bytesFor = (shape: SpaceShape) => (file: File) =>
  file.id === "include"
    ? includeBytes
    : shape.files[Number(file.id.slice(4))] as Uint8Array

const sha = (bytes: Uint8Array) => Array.from(bytes).join(".")

/** Imports `files` on `base` with counting ids and blob keys read from the bytes. */
const importInto = (files: ReadonlyMap<string, Uint8Array>, base: RevisionContent, projectDirectory = "") => {
  let n = 0
  // No turns and no workers here: the import runs as one synchronous call.
  return Effect.runSync(importFiles(files, {
    projectDirectory,
    base,
    newId: () => `new${n++}`,
    blobKeys: new Map(Array.from(files, ([path, bytes]) => [path, sha(bytes)])),
    oids: new Map(Array.from(files.keys(), (path) => [path, `oid:${path}`])),
    now: at
  }))
}

const bytesOfImported = (files: ReadonlyMap<string, Uint8Array>) => (file: File) => files.get(file.git?.path ?? "") ?? new Uint8Array()

/** A revision's tree as paths and fields, with ids replaced by paths so that two spaces compare. */
const describe_ = (content: RevisionContent) => {
  const tree = pageTree(content)
  const pathOfId = new Map<string, string>()
  const walk = (nodes: typeof tree) => {
    for (const node of nodes) {
      pathOfId.set(node.page.id, node.path)
      walk(node.pages)
    }
  }
  walk(tree)
  const fileName = new Map(Array.from(content.files.values(), (f) => [f.id as string, f.name]))
  const unId = (markdown: string) =>
    markdown.replace(/\/pages\/([A-Za-z0-9]+)/g, (_, id: string) => `/pages/@${pathOfId.get(id)}`).replace(
      /\/files\/([A-Za-z0-9]+)/g,
      (_, id: string) => `/files/@${fileName.get(id)}`
    )
  const describeNodes = (nodes: typeof tree): unknown =>
    nodes.map(({ page, path, pages }) => ({
      path,
      kind: page.kind,
      title: page.title,
      markdown: unId(page.markdown),
      href: page.href,
      description: page.description,
      icon: page.icon,
      hidden: page.hidden,
      noIndex: page.noIndex,
      noRobotsIndex: page.noRobotsIndex,
      layout: page.layout,
      cover: page.cover === undefined ? undefined : { file: fileName.get(page.cover.file), yPos: page.cover.yPos },
      pages: describeNodes(pages)
    }))
  return {
    pages: describeNodes(tree),
    files: Array.from(content.files.values(), (f) => ({ name: f.name, size: f.size, contentType: f.contentType })).sort((a, b) =>
      a.name < b.name ? -1 : 1
    )
  }
}

const sameBytes = (a: ReadonlyMap<string, Uint8Array>, b: ReadonlyMap<string, Uint8Array>) => {
  expect(Array.from(b.keys()).sort()).toEqual(Array.from(a.keys()).sort())
  for (const [path, bytes] of a) expect(decoder.decode(b.get(path)), path).toEqual(decoder.decode(bytes))
  for (const [path, bytes] of a) expect(Buffer.from(b.get(path) ?? []).equals(Buffer.from(bytes)), path).toBe(true)
}

/** Which of GitBook's ways of writing a repository a generated one gets (`asGitbookWrites`). */
const gitbookisms = fc.record({
  unknownKeys: fc.boolean(),
  folded: fc.boolean(),
  anchors: fc.boolean(),
  separators: fc.boolean(),
  labels: fc.boolean(),
  intoPages: fc.boolean(),
  fenced: fc.boolean(),
  dotSlash: fc.boolean(),
  every: fc.integer({ min: 1, max: 3 })
})

/**
 * A repository in the format rewritten as GitBook's editor writes one: front matter with keys Octavo does not
 * model (in \`layout\` too) and folded descriptions, group headings with anchors, \`***\` lines between groups, links
 * with navigation labels, entries that point into a page, a fenced \`builtin:openapi\` entry, and relative links
 * spelled with \`./\`; every \`every\`-th page file gets the page-level ones.
 */
const asGitbookWrites = (files: ReadonlyMap<string, Uint8Array>, isms: typeof gitbookisms extends fc.Arbitrary<infer T> ? T : never) => {
  const out = new Map(files)
  let n = 0
  for (const [path, bytes] of files) {
    if (!path.endsWith(".md") || path === "SUMMARY.md" || path.startsWith(".gitbook/")) continue
    if (n++ % isms.every !== 0) continue
    let text = decoder.decode(bytes)
    if (isms.unknownKeys) {
      text = text.startsWith("---\n")
        ? text.replace(/^---\n/, "---\nmetadata:\n  owner: docs # who answers\n").replace(/\nlayout:\n/, "\nlayout:\n  width: wide\n")
        : `---\ntags:\n  - one\n---\n\n${text}`
    }
    if (isms.folded) text = text.replace(/^description: ([A-Za-z .]+)$/m, "description: >-\n  $1")
    if (isms.dotSlash) text = text.replace(/\]\((?![.#/<]|https?:)([^)\s]+)\)/g, "](./$1)")
    out.set(path, encoder.encode(text))
  }
  let summary = decoder.decode(files.get("SUMMARY.md"))
  let groups = 0
  summary = summary.split("\n").flatMap((line) => {
    const group = /^## (.+)$/.exec(line)
    if (group !== null) {
      const heading = isms.anchors ? `${line} <a href="#g${groups}" id="g${groups}"></a>` : line
      return isms.separators && groups++ > 0 ? ["***", "", heading] : (groups++, [heading])
    }
    const item = /^( *)\* \[(.+)\]\(([^)]+\.md)\)$/.exec(line)
    if (item === null) return [line]
    const [, indent, text, target] = item as unknown as [string, string, string, string]
    const lines = [isms.labels ? `${indent}* [${text}](${target} "Label")` : line]
    if (isms.intoPages) lines.push(`${indent}  * [Jump](${target}#jump)`)
    return lines
  }).join("\n")
  if (isms.fenced) {
    summary = summary.replace(
      /^(\* \[.+\]\(README\.md[^)]*\))$/m,
      "$1\n* ```yaml\n  type: builtin:openapi\n  dependencies:\n    spec:\n      ref:\n        kind: openapi\n        spec: petstore\n  ```"
    )
  }
  out.set("SUMMARY.md", encoder.encode(summary))
  return out
}

// The property tests below generate whole repositories: tens of seconds on a loaded 2-core machine, not a time goal.
describe("Git Sync format", { timeout: 180_000 }, () => {
  it("paths resolve and relate", () => {
    expect(resolvePath("a/b", "../c.md")).toBe("a/c.md")
    expect(resolvePath("", "../c.md")).toBeUndefined()
    expect(relativePath("a/b", "a/c.md")).toBe("../c.md")
    expect(relativePath("", ".gitbook/assets/x.png")).toBe(".gitbook/assets/x.png")
    expect(relativePath("a", "a/b/README.md")).toBe("b/README.md")
    expect(contentTypeOf("x.PNG")).toBe("image/png")
  })

  it("reads .gitbook.yaml, keeping inside the project", () => {
    expect(readGitbookConfig("root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\n")).toEqual({
      root: "docs",
      readme: "intro.md",
      summary: "toc.md"
    })
    expect(readGitbookConfig("root: ../../etc")).toEqual(defaultGitbookConfig)
    expect(readGitbookConfig("[not a mapping")).toEqual(defaultGitbookConfig)
  })

  it("a space exported and imported into a new space gives the same tree, fields, markdown and files", () =>
    fc.assert(
      fc.property(space, (shape) => {
        const content = build(shape)
        const files = Effect.runSync(exportFiles(content, { projectDirectory: "", config: defaultGitbookConfig, bytesOf: bytesFor(shape) }))
        const imported = importInto(files, { pages: new Map(), files: new Map() })
        expect(JSON.stringify(describe_(imported), null, 1)).toEqual(JSON.stringify(describe_(content), null, 1))
        for (const file of content.files.values()) {
          const twin = Array.from(imported.files.values()).find((f) => f.name === file.name)
          expect(twin?.blobKey).toBe(sha(bytesFor(shape)(file)))
        }
      }),
      { numRuns: 30 }
    ))

  it("a repository in the format imports and exports back byte for byte", () =>
    fc.assert(
      fc.property(space, fc.constantFrom("", "docs", "a/b"), (shape, projectDirectory) => {
        const repository = Effect.runSync(
          exportFiles(build(shape), { projectDirectory, config: defaultGitbookConfig, bytesOf: bytesFor(shape) })
        )
        const imported = importInto(repository, { pages: new Map(), files: new Map() }, projectDirectory)
        const again = Effect.runSync(
          exportFiles(imported, { projectDirectory, config: defaultGitbookConfig, bytesOf: bytesOfImported(repository) })
        )
        sameBytes(repository, again)
        // A second import of the same files on the first one changes nothing, ids included.
        const twice = importInto(repository, imported, projectDirectory)
        expect(sameContent(twice, imported)).toBe(true)
        expect(Array.from(twice.pages.values()).every((p) => imported.pages.get(p.id) === p)).toBe(true)
      }),
      { numRuns: 30 }
    ))

  it("pages keep their ids across imports, matched by git.path; an edited page alone changes", () => {
    const files = new Map<string, Uint8Array>([
      ["SUMMARY.md", encoder.encode("# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide.md)\n")],
      ["README.md", encoder.encode("# Intro\n\nHello.\n")],
      ["guide.md", encoder.encode("# Guide\n\nSee [intro](README.md).\n")]
    ])
    const first = importInto(files, { pages: new Map(), files: new Map() })
    const edited = new Map(files).set("guide.md", encoder.encode("# Guide\n\nChanged.\n"))
    const second = importInto(edited, first)
    const byPath = (c: RevisionContent, path: string) => Array.from(c.pages.values()).find((p) => p.git?.path === path)
    expect(byPath(second, "guide.md")?.id).toBe(byPath(first, "guide.md")?.id)
    expect(byPath(second, "README.md")).toBe(byPath(first, "README.md"))
    expect(byPath(second, "guide.md")?.markdown).toBe("Changed.\n")
    expect(byPath(first, "guide.md")?.markdown).toBe(`See [intro](/pages/${byPath(first, "README.md")?.id}).\n`)
  })

  it("without SUMMARY.md: README first, the rest by name, folders as pages; titles from headings or names", () => {
    const files = new Map<string, Uint8Array>([
      ["zeta.md", encoder.encode("No heading here.\n")],
      ["README.md", encoder.encode("# Home\n")],
      ["alpha.md", encoder.encode("# Alpha\n")],
      ["folder/inner.md", encoder.encode("# Inner\n")],
      ["with-readme/README.md", encoder.encode("# Section\n")],
      ["with-readme/child.md", encoder.encode("# Child\n")]
    ])
    const content = importInto(files, { pages: new Map(), files: new Map() })
    const shape = (nodes: ReturnType<typeof pageTree>): unknown => nodes.map((n) => [n.page.title, n.path, shape(n.pages)])
    expect(shape(pageTree(content))).toEqual([
      ["Home", "home", []],
      ["Alpha", "alpha", []],
      ["folder", "folder", [["Inner", "folder/inner", []]]],
      ["Section", "with-readme", [["Child", "with-readme/child", []]]],
      ["zeta", "zeta", []]
    ])
  })

  it("SUMMARY.md: groups, nesting, links, missing files as empty pages, .gitbook.yaml's root", () => {
    const files = new Map<string, Uint8Array>([
      [".gitbook.yaml", encoder.encode("root: ./content/\n")],
      [
        "content/SUMMARY.md",
        encoder.encode(
          "# Table of contents\n\n* [Welcome](README.md)\n* [Elsewhere](https://example.com/x)\n\n## Guides\n\n* [Start](guides/start/README.md)\n  * [Missing](guides/start/missing.md)\n"
        )
      ],
      ["content/README.md", encoder.encode("---\ndescription: Hi\nhidden: true\nunknown: dropped\n---\n\n# Welcome\n\nText.\n")],
      ["content/guides/start/README.md", encoder.encode("Body without heading.\n")],
      ["outside.md", encoder.encode("# Not content\n")]
    ])
    const content = importInto(files, { pages: new Map(), files: new Map() })
    const tree = pageTree(content)
    expect(tree.map((n) => [n.page.kind, n.page.title, n.path])).toEqual([
      ["document", "Welcome", "welcome"],
      ["link", "Elsewhere", "elsewhere"],
      ["group", "Guides", "guides"]
    ])
    expect(tree[0]?.page).toMatchObject({ description: "Hi", hidden: true, markdown: "Text.\n", git: { path: "content/README.md" } })
    expect(tree[1]?.page.href).toBe("https://example.com/x")
    const start = tree[2]?.pages[0]
    expect(start?.page).toMatchObject({ title: "Start", slug: "start", markdown: "Body without heading.\n" })
    expect(start?.pages[0]?.page).toMatchObject({ title: "Missing", markdown: "" })
    expect(start?.pages[0]?.page.git).toBeUndefined()
  })

  it("a repository as GitBook writes it (unknown front matter, folded YAML, SUMMARY.md's anchors, labels, separators, entries into pages, fenced entries, link spellings) exports back untouched, and imports again to the same content", () =>
    fc.assert(
      fc.property(space, gitbookisms, (shape, isms) => {
        const canonical = Effect.runSync(
          exportFiles(build(shape), { projectDirectory: "", config: defaultGitbookConfig, bytesOf: bytesFor(shape) })
        )
        const repository = asGitbookWrites(canonical, isms)
        repository.set("CONTRIBUTING.md", encoder.encode("# Contributing\n\nNot a page.\n"))
        const summary = decoder.decode(repository.get("SUMMARY.md"))
        if (isms.labels) expect(summary).toContain(`](README.md "Label")`)
        if (isms.fenced) expect(summary).toContain("builtin:openapi")
        if (isms.unknownKeys) expect(decoder.decode(repository.get("README.md"))).toMatch(/tags:|metadata:/)
        const imported = importInto(repository, { pages: new Map(), files: new Map() })
        const owned = new Set<string>(["SUMMARY.md"])
        for (const item of [...imported.pages.values(), ...imported.files.values()]) if (item.git !== undefined) owned.add(item.git.path)
        const branch = { paths: new Set(repository.keys()), owned, texts: repository }
        const again = Effect.runSync(
          exportFiles(imported, { projectDirectory: "", config: defaultGitbookConfig, bytesOf: bytesOfImported(repository), branch })
        )
        // Every file the export writes is the branch's own, byte for byte; every file Octavo owns is written.
        for (const [path, bytes] of again) expect(decoder.decode(bytes), path).toBe(decoder.decode(repository.get(path)))
        for (const path of owned) expect(again.has(path), path).toBe(true)
        expect(again.has("CONTRIBUTING.md")).toBe(false)
        // The branch imported again is the same content: a fixed point.
        const twice = importInto(new Map([...repository, ...again]), imported)
        expect(sameContent(twice, imported)).toBe(true)
      }),
      { numRuns: 40 }
    ))

  it("an import tells how far it is: page files read of those to read, in batches, up to all of them", () => {
    const files = new Map<string, Uint8Array>([[
      "SUMMARY.md",
      encoder.encode(
        `# Table of contents\n\n${Array.from({ length: 400 }, (_, i) => `* [Page ${i}](page-${i}.md)`).join("\n")}\n`
      )
    ]])
    for (let i = 0; i < 400; i++) files.set(`page-${i}.md`, encoder.encode(`# Page ${i}\n\n${"Words about the page. ".repeat(40)}\n`))
    const told: Array<readonly [number, number]> = []
    Effect.runSync(importFiles(files, {
      projectDirectory: "",
      base: { pages: new Map(), files: new Map() },
      newId: (() => {
        let n = 0
        return () => `id${n++}`
      })(),
      blobKeys: new Map(),
      oids: new Map(),
      now: at,
      progress: (done, total) => Effect.sync(() => void told.push([done, total]))
    }))
    expect(told.length).toBeGreaterThan(1)
    expect(told.every(([, total]) => total === 400)).toBe(true)
    expect(told.every(([done], i) => i === 0 || done > (told[i - 1] as readonly [number, number])[0])).toBe(true)
    expect(told.at(-1)).toEqual([400, 400])
  })
})
