import { type PageMarkdown, readPage } from "@octavo/markdown"

export { slugify } from "@octavo/markdown"

/**
 * What a page's markdown says about the page (conventions.md): front matter sets fields, and
 * without a title the first heading becomes it and leaves the body.
 */
export type MarkdownFields = PageMarkdown

export const readMarkdown = (markdown: string, hasTitle: boolean): MarkdownFields => readPage(markdown, { takeTitle: !hasTitle })
