import { describe, expect, it } from "vitest"
import { defaultGitbookConfig, MAX_GITBOOK_REDIRECTS, readGitbookConfig } from "../src/index.js"

// `.gitbook.yaml`'s `redirects:` (issue 39): a mapping of old paths to files, both relative to the content root.

describe("readGitbookConfig: redirects", () => {
  it("reads the mapping in order, paths cleaned as the other paths are", () => {
    const config = readGitbookConfig(
      "root: ./docs/\nredirects:\n  previous/page: new-folder/page.md\n  ./old/: ./guide.md\n  '2019': archive/2019.md\n"
    )
    expect(config).toEqual({
      root: "docs",
      readme: "README.md",
      summary: "SUMMARY.md",
      redirects: [
        // YAML keys that look like integers come first in a JavaScript object: the file's order otherwise.
        { source: "2019", target: "archive/2019.md" },
        { source: "previous/page", target: "new-folder/page.md" },
        { source: "old", target: "guide.md" }
      ]
    })
  })

  it("leaves out entries that are not paths inside the project, without failing the file", () => {
    const config = readGitbookConfig(
      [
        "structure:",
        "  summary: toc.md",
        "redirects:",
        "  kept: target.md",
        "  ../outside: a.md",
        "  up: ../../etc/passwd",
        "  empty: ''",
        "  none:",
        "  nested: { not: a path }",
        "  list: [a.md]",
        "  '/': a.md",
        "  control: \"a\\u0001.md\"",
        "  ./kept/: second.md",
        "  twice: first.md",
        "  twice: last.md",
        ""
      ].join("\n")
    )
    expect(config).toEqual({
      ...defaultGitbookConfig,
      summary: "toc.md",
      redirects: [{ source: "kept", target: "target.md" }, { source: "twice", target: "last.md" }]
    })
  })

  it("has no redirects when the file declares none, or declares them as something else than a mapping", () => {
    expect(readGitbookConfig("root: ./\n")).toEqual(defaultGitbookConfig)
    expect(readGitbookConfig("redirects:\n  - a.md\n")).toEqual(defaultGitbookConfig)
    expect(readGitbookConfig("redirects: a.md\n")).toEqual(defaultGitbookConfig)
  })

  it(`reads at most ${MAX_GITBOOK_REDIRECTS} entries`, () => {
    const lines = Array.from({ length: MAX_GITBOOK_REDIRECTS + 1 }, (_, i) => `  old-${i}: new-${i}.md`)
    const redirects = readGitbookConfig(`redirects:\n${lines.join("\n")}\n`).redirects ?? []
    expect(redirects.length).toBe(MAX_GITBOOK_REDIRECTS)
    expect(redirects.at(-1)).toEqual({ source: `old-${MAX_GITBOOK_REDIRECTS - 1}`, target: `new-${MAX_GITBOOK_REDIRECTS - 1}.md` })
  })
})
