import { describe, expect, it } from "vitest"
import { emptySiteConfig, patchSiteConfig, readSiteConfigYaml } from "../src/index.js"

// A site's `docs.yaml` (issue 39) changed node by node: the lines of what changed, nothing else.

const source = `# The site of the Lighthouse project.
site:
  title: Lighthouse
  structure:
    - type: section
      key: s-1
      title: Guides
      description: >-
        How to keep
        the light on
      path: guides
      default: true
      children:
        - type: space
          key: sp-1
          title: "Keeper's guide"
          path: keeper
          default: true
          content:
            directory: ./keeper # the oldest space
    - type: section-group
      key: g-1
      title: More
      children: []
    - type: section
      key: s-2
      title: Logbook
      path: logbook
      children:
        - type: space
          key: sp-2
          title: Logbook
          path: log
          default: true
          content:
            directory: ./log
`

describe("patchSiteConfig", () => {
  it("answers the text itself when nothing changes", () => {
    expect(patchSiteConfig(source, [])).toBe(source)
  })

  it("rewrites a changed field's line alone: folded text, quotes and comments elsewhere stay", () => {
    const out = patchSiteConfig(source, [{ kind: "set", key: "s-2", field: "title", value: "Ship's log" }])
    expect(out).toBe(source.replace("      title: Logbook\n", "      title: Ship's log\n"))
  })

  it("rewrites a folded field as one value when it changes, and adds or takes out fields", () => {
    const out = patchSiteConfig(source, [
      { kind: "set", key: "s-1", field: "description", value: "Keeping the light on" },
      { kind: "set", key: "s-2", field: "icon", value: "book" },
      { kind: "set", key: "sp-1", field: "default", value: undefined }
    ])
    expect(out).toContain("      description: Keeping the light on\n      path: guides\n")
    expect(out).toContain("          path: keeper\n          content:")
    // A new field goes above the node's children.
    expect(out).toContain("      key: s-2\n      title: Logbook\n      path: logbook\n      icon: book\n      children:\n")
    const data = readSiteConfigYaml(out)
    expect("data" in data && JSON.stringify(data.data)).toContain("\"icon\":\"book\"")
  })

  it("writes a localized title as a map above the children, changes it in place, and takes it out", () => {
    const added = patchSiteConfig(source, [{ kind: "set", key: "s-2", field: "localizedTitle", value: { fr: "Journal", ja: "航海日誌" } }])
    expect(added).toBe(source.replace(
      "      path: logbook\n      children:\n",
      "      path: logbook\n      localizedTitle:\n        fr: Journal\n        ja: 航海日誌\n      children:\n"
    ))
    const changed = patchSiteConfig(added, [{ kind: "set", key: "s-2", field: "localizedTitle", value: { fr: "Journal de bord" } }])
    expect(changed).toBe(source.replace(
      "      path: logbook\n      children:\n",
      "      path: logbook\n      localizedTitle:\n        fr: Journal de bord\n      children:\n"
    ))
    // A space's content block, rewritten whole with its language; a comment inside it goes with the old value.
    const language = patchSiteConfig(source, [{
      kind: "set",
      key: "sp-2",
      field: "content",
      value: { directory: "./log", language: "fr" }
    }])
    expect(language).toBe(source.replace("            directory: ./log\n", "            directory: ./log\n            language: fr\n"))
    expect(patchSiteConfig(changed, [{ kind: "set", key: "s-2", field: "localizedTitle", value: undefined }])).toBe(source)
  })

  it("takes a node out with its lines, and adds nodes at the end of a list, an empty one included", () => {
    const out = patchSiteConfig(source, [
      { kind: "remove", key: "sp-2" },
      {
        kind: "append",
        parent: "s-1",
        node: { type: "space", key: "sp-3", title: "Lamps", path: "lamps", content: { directory: "./lamps" } }
      },
      { kind: "append", parent: "g-1", node: { type: "section", key: "s-3", title: "Tides", path: "tides", children: [] } },
      { kind: "append", parent: null, node: { type: "section", key: "s-4", title: "Weather", path: "weather" } }
    ])
    const read = readSiteConfigYaml(out)
    if (!("data" in read)) throw new Error(read.error)
    const site = (read.data as { site: { structure: Array<{ key: string; children?: Array<{ key: string }> }> } }).site
    expect(site.structure.map((n) => n.key)).toEqual(["s-1", "g-1", "s-2", "s-4"])
    expect(site.structure[0]!.children!.map((n) => n.key)).toEqual(["sp-1", "sp-3"])
    expect(site.structure[1]!.children!.map((n) => n.key)).toEqual(["s-3"])
    expect(site.structure[2]!.children).toEqual([])
    // The comment and the folded description are where they were.
    expect(out.startsWith("# The site of the Lighthouse project.\n")).toBe(true)
    expect(out).toContain("      description: >-\n        How to keep\n        the light on\n")
    expect(out).toContain("            directory: ./keeper # the oldest space\n")
  })

  it("sets the site's own title", () => {
    const out = patchSiteConfig(source, [{ kind: "set", key: null, field: "title", value: "The Lighthouse" }])
    expect(out).toBe(source.replace("  title: Lighthouse\n", "  title: The Lighthouse\n"))
  })

  it("fills an empty configuration", () => {
    const out = patchSiteConfig(emptySiteConfig("Fresh"), [
      { kind: "append", parent: null, node: { type: "space", key: "space-1", title: "Home", path: "home", default: true } }
    ])
    const read = readSiteConfigYaml(out)
    expect("data" in read && read.data).toEqual({
      site: { title: "Fresh", structure: [{ type: "space", key: "space-1", title: "Home", path: "home", default: true }] }
    })
  })
})
