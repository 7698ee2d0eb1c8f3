// Reading a fetched page for an import lives in @octavo/markdown, on the unified ecosystem (hast, mdast).
export { decodeHtml, type HtmlPage, type MarkdownRewrite, readHtml } from "@octavo/markdown"
