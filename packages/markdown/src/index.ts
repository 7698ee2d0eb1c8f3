// GitBook markdown on the unified ecosystem: pure functions over one parse of a page.
export type * from "./nodes.js"
export { MAX_LINE_NESTING, MAX_PARAGRAPH_MARKERS, MAX_TEXT_LINES, MAX_TEXT_MARKERS, markdownProblem } from "./guard.js"
export { parse } from "./parse.js"
export { stringify } from "./stringify.js"
export type { LayoutPart, PageFields, PageLayout, PageMarkdown } from "./page.js"
export { keepUnchangedBlocks } from "./merge.js"
export { layoutParts, patchPage, readPage, writePage } from "./page.js"
export type { Section } from "./text.js"
export { anchorOf, plainText, sections, slugify } from "./text.js"
export type { Link, LinkKind } from "./links.js"
export { linksOf, rewriteLinks } from "./links.js"
export type {
  Block,
  DocumentBlock,
  DocumentContentRef,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentText,
  JSONDocument,
  MarkType
} from "./document.js"
export { blocksOf, fromDocument, refOf, toDocument, urlOf } from "./document.js"
export * from "./html.js"
export { MAX_YAML_ALIASES, type Parsed, parseYamlOrJson, type TextFormat } from "./openapi/parse.js"
export type { GitbookConfig, GitbookRedirect, SummaryEntry, SummaryItem } from "./gitbook.js"
export {
  defaultGitbookConfig,
  MAX_GITBOOK_REDIRECTS,
  patchSummary,
  readGitbookConfig,
  readSummary,
  writeGitbookConfig,
  writeSummary
} from "./gitbook.js"
export { emptySiteConfig, patchSiteConfig, readSiteConfigYaml, type SiteConfigEdit } from "./siteConfig.js"
export { type OutlineHeading, type Rendered, renderHtml, type RenderOptions } from "./render.js"
