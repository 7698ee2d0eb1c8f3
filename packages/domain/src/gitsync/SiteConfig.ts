import { readSiteConfigYaml } from "@octavo/markdown"
import { Either, ParseResult, Schema } from "effect"
import { LocalizedDescription, LocalizedTitle, TranslationLanguage } from "../shared/Languages.js"
import { boundedString, StoredString, unstorableText } from "../shared/Limits.js"
import {
  SiteCondition,
  SiteSectionDescription,
  SiteSectionGroupTitle,
  SiteSectionIcon,
  SiteSectionPath,
  SiteSectionTitle,
  SiteSpacePath,
  SiteTitle
} from "../sites/Site.js"
import { joinPath } from "./Format.js"
import { normalizeDirectory } from "./GitSync.js"

// A site's Git Sync configuration (GitBook's `GitSyncSiteConfig`): `docs.yaml` at the root of the site's project
// directory names the site and maps the repository's directories onto its sections, section groups and spaces.

/** The file's names, the first found is read: the one GitBook's repositories hold, then the one its schema names. */
export const SITE_CONFIG_FILES = ["docs.yaml", "gitbook-docs.yaml"] as const

/** A larger configuration is refused (GitBook's own, with four sections and four languages, is 7 KB). */
export const MAX_SITE_CONFIG_BYTES = 1024 * 1024

/** Nodes of a configuration, at most. */
export const MAX_SITE_CONFIG_NODES = 2_000

const NodeKey = boundedString({ min: 1, max: 100 })
const Directory = Schema.NullOr(
  boundedString({ min: 1, max: 1024 }).pipe(
    Schema.filter((dir) => {
      if (dir.split("/").some((part) => part === "..")) return "must not hold .. (parent directories are rejected)"
      for (let i = 0; i < dir.length; i++) {
        const code = dir.charCodeAt(i)
        if (code < 0x20 || code === 0x7f || dir[i] === "\\") return "must not hold control characters or backslashes"
      }
      return true
    })
  )
)

export const SiteConfigSpace = Schema.Struct({
  type: Schema.Literal("space"),
  key: NodeKey,
  title: boundedString({ min: 1, max: 128 }),
  localizedTitle: Schema.optional(LocalizedTitle),
  path: SiteSpacePath,
  default: Schema.optional(Schema.Boolean),
  hidden: Schema.optional(Schema.Boolean),
  draft: Schema.optional(Schema.Boolean),
  condition: Schema.optional(SiteCondition),
  content: Schema.Struct({ directory: Directory, language: Schema.optional(TranslationLanguage) })
})
export type SiteConfigSpace = typeof SiteConfigSpace.Type

export const SiteConfigSection = Schema.Struct({
  type: Schema.Literal("section"),
  key: NodeKey,
  title: SiteSectionTitle,
  localizedTitle: Schema.optional(LocalizedTitle),
  description: Schema.optional(SiteSectionDescription),
  localizedDescription: Schema.optional(LocalizedDescription),
  icon: Schema.optional(SiteSectionIcon),
  default: Schema.optional(Schema.Boolean),
  draft: Schema.optional(Schema.Boolean),
  path: SiteSectionPath,
  condition: Schema.optional(SiteCondition),
  children: Schema.optional(Schema.Array(SiteConfigSpace))
})
export type SiteConfigSection = typeof SiteConfigSection.Type

export const SiteConfigLink = Schema.Struct({
  type: Schema.Literal("external-link"),
  key: NodeKey,
  title: boundedString({ min: 1, max: 128 }),
  localizedTitle: Schema.optional(LocalizedTitle),
  description: Schema.optional(boundedString({ max: 256 })),
  localizedDescription: Schema.optional(LocalizedDescription),
  icon: Schema.optional(SiteSectionIcon),
  url: boundedString({ min: 1, max: 2048 }).pipe(Schema.pattern(/^https?:\/\/[^\s]+$/i, { message: () => "must be an http(s) URL" })),
  draft: Schema.optional(Schema.Boolean),
  condition: Schema.optional(SiteCondition)
})
export type SiteConfigLink = typeof SiteConfigLink.Type

export interface SiteConfigGroup {
  readonly type: "section-group"
  readonly key: string
  readonly title: string
  readonly localizedTitle?: { readonly [language: string]: string } | undefined
  readonly icon?: string | undefined
  readonly draft?: boolean | undefined
  readonly children?: ReadonlyArray<SiteConfigGroup | SiteConfigSection | SiteConfigLink> | undefined
}

export const SiteConfigGroup: Schema.Schema<SiteConfigGroup> = Schema.Struct({
  type: Schema.Literal("section-group"),
  key: NodeKey,
  title: SiteSectionGroupTitle,
  localizedTitle: Schema.optional(LocalizedTitle),
  icon: Schema.optional(SiteSectionIcon),
  draft: Schema.optional(Schema.Boolean),
  children: Schema.optional(
    Schema.Array(Schema.Union(Schema.suspend((): Schema.Schema<SiteConfigGroup> => SiteConfigGroup), SiteConfigSection, SiteConfigLink))
  )
})

export type SiteConfigNode = SiteConfigGroup | SiteConfigSection | SiteConfigSpace | SiteConfigLink

export const SiteConfig = Schema.Struct({
  $schema: Schema.optional(StoredString),
  version: Schema.optional(Schema.Literal(1)),
  site: Schema.Struct({
    title: SiteTitle,
    structure: Schema.Array(Schema.Union(SiteConfigGroup, SiteConfigSection, SiteConfigSpace, SiteConfigLink))
  })
})
export type SiteConfig = typeof SiteConfig.Type

const decodeConfig = Schema.decodeUnknownEither(SiteConfig, { errors: "first", onExcessProperty: "error" })

/** Each node with its parent (null at the top level), in the file's order. */
export const nodesOf = (config: SiteConfig): Array<{ readonly node: SiteConfigNode; readonly parent: SiteConfigNode | null }> => {
  const out: Array<{ readonly node: SiteConfigNode; readonly parent: SiteConfigNode | null }> = []
  const walk = (nodes: ReadonlyArray<SiteConfigNode>, parent: SiteConfigNode | null) => {
    for (const node of nodes) {
      out.push({ node, parent })
      if ((node.type === "section" || node.type === "section-group") && node.children !== undefined) walk(node.children, node)
    }
  }
  walk(config.site.structure, null)
  return out
}

/** The `key` of the innermost node on a path through the file's data, to name where a problem is. */
const nodeAt = (data: unknown, path: ReadonlyArray<PropertyKey>): string | undefined => {
  let current: unknown = data
  let key: string | undefined
  for (const step of path) {
    if (typeof current !== "object" || current === null) break
    const k = (current as Record<string, unknown>)["key"]
    if (typeof k === "string" && (current as Record<string, unknown>)["type"] !== undefined) key = k
    current = (current as Record<PropertyKey, unknown>)[step]
  }
  if (typeof current === "object" && current !== null) {
    const k = (current as Record<string, unknown>)["key"]
    if (typeof k === "string") key = k
  }
  return key
}

const live = (node: SiteConfigNode): boolean => node.draft !== true

/**
 * What breaks GitBook's rules for a structure (its schema's "Rules checked on import"), each naming the node, and the
 * one Octavo adds (a space at most once per section): empty when the structure holds.
 */
export const siteConfigProblems = (config: SiteConfig): Array<string> => {
  const problems: Array<string> = []
  const all = nodesOf(config)
  if (all.length > MAX_SITE_CONFIG_NODES) return [`declares ${all.length} nodes, more than ${MAX_SITE_CONFIG_NODES}`]
  const seen = new Set<string>()
  for (const { node } of all) {
    if (seen.has(node.key)) problems.push(`the key ${node.key} is used by more than one node`)
    seen.add(node.key)
  }
  const parentOf = new Map(all.map(({ node, parent }) => [node, parent] as const))
  for (const { node, parent } of all) {
    if (node.type === "section-group" && parent?.type === "section-group" && parentOf.get(parent)?.type === "section-group") {
      problems.push(`section group ${node.key} is nested more than one level deep`)
    }
  }
  const top = config.site.structure.filter(live)
  const sections = all.map((x) => x.node).filter((n): n is SiteConfigSection => n.type === "section" && live(n))
  const topSpaces = top.filter((n): n is SiteConfigSpace => n.type === "space")
  const oneDefault = (spaces: ReadonlyArray<SiteConfigSpace>, where: string) => {
    const defaults = spaces.filter((s) => s.default === true)
    if (spaces.length === 0) problems.push(`${where} has no space that is not a draft`)
    else if (defaults.length !== 1) problems.push(`${where} marks ${defaults.length} spaces default: true, where one is needed`)
    const paths = spaces.map((s) => s.path.toLowerCase())
    const repeated = paths.find((p, i) => paths.indexOf(p) !== i)
    if (repeated !== undefined) problems.push(`${where} has two spaces at the path ${repeated}`)
    const dirs = spaces.map((s) => s.content.directory).filter((d): d is string => d !== null).map(normalizeDirectory)
    const shared = dirs.find((d, i) => dirs.indexOf(d) !== i)
    if (shared !== undefined) problems.push(`${where} has two spaces reading the directory ${shared || "."}`)
  }
  if (sections.length > 0) {
    if (topSpaces.length > 0) problems.push(`space ${topSpaces[0]!.key} is at the top level of a site that has sections`)
    const defaults = sections.filter((s) => s.default === true)
    if (defaults.length !== 1) problems.push(`${defaults.length} sections are marked default: true, where one is needed`)
    const paths = sections.map((s) => s.path.toLowerCase())
    const repeated = paths.find((p, i) => paths.indexOf(p) !== i)
    if (repeated !== undefined) problems.push(`two sections have the path ${repeated}`)
    for (const section of sections) oneDefault((section.children ?? []).filter(live), `section ${section.key}`)
  } else {
    const links = all.filter((x) => live(x.node) && (x.node.type === "external-link" || x.node.type === "section-group"))
    if (links.length > 0) problems.push(`${links[0]!.node.type} ${links[0]!.node.key} needs a site with sections`)
    oneDefault(topSpaces, "the site")
  }
  return problems
}

/** The configuration a text holds, or the sentence that says why it is not one (its rules checked). */
export const readSiteConfig = (text: string): Either.Either<SiteConfig, string> =>
  Either.flatMap(parseSiteConfig(text), (config) => {
    const problems = siteConfigProblems(config)
    return problems.length === 0 ? Either.right(config) : Either.left(problems.join("; "))
  })

/** The configuration a text holds, its nodes' shapes checked but not the structure's rules (an export's base). */
export const parseSiteConfig = (text: string): Either.Either<SiteConfig, string> => {
  if (text.length > MAX_SITE_CONFIG_BYTES) return Either.left(`is larger than ${MAX_SITE_CONFIG_BYTES} bytes`)
  const unstorable = unstorableText(text)
  if (unstorable !== undefined) return Either.left(unstorable)
  const read = readSiteConfigYaml(text)
  if ("error" in read) return Either.left(read.error)
  return Either.mapLeft(decodeConfig(read.data), (error) => {
    const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
    if (issue === undefined) return "is not a site configuration"
    const key = nodeAt(read.data, issue.path)
    const field = issue.path.join(".")
    return `${key === undefined ? "" : `node ${key}: `}${field === "" ? "" : `${field}: `}${issue.message}`
  })
}

/**
 * Where a space's directory is in the repository: resolved from the site's project directory, or from the repository's
 * root when it starts with `/`.
 */
export const directoryIn = (projectDirectory: string, directory: string): string =>
  directory.startsWith("/") ? normalizeDirectory(directory) : normalizeDirectory(joinPath(projectDirectory, normalizeDirectory(directory)))

/** Whether a node and every node above it is live (not a draft): what an import places on the site. */
export const liveNodes = (config: SiteConfig): Array<{ readonly node: SiteConfigNode; readonly parent: SiteConfigNode | null }> => {
  const out: Array<{ readonly node: SiteConfigNode; readonly parent: SiteConfigNode | null }> = []
  const walk = (nodes: ReadonlyArray<SiteConfigNode>, parent: SiteConfigNode | null) => {
    for (const node of nodes) {
      if (!live(node)) continue
      out.push({ node, parent })
      if ((node.type === "section" || node.type === "section-group") && node.children !== undefined) walk(node.children, node)
    }
  }
  walk(config.site.structure, null)
  return out
}

/** A key of the form `<prefix>-<n>` that no node uses yet. */
export const freeKey = (used: Set<string>, prefix: string): string => {
  let n = 1
  while (used.has(`${prefix}-${n}`)) n++
  const key = `${prefix}-${n}`
  used.add(key)
  return key
}
