import type { ContentPage } from "../content/Page.js"
import type { Section } from "./Ports.js"
import { stem } from "./Stemmer.js"

// Common English words that say nothing about a page; neither indexed nor searched.
const stopWords = new Set(
  ("a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other " +
    "our ours ourselves out over own same she should so some such than that the their theirs them themselves then there " +
    "these they this those through to too under until up very was we were what when where which while who whom why will " +
    "with would you your yours yourself yourselves").split(" ")
)

/** Longer runs of letters are not words (hashes, base64): they are not indexed. */
const MAX_WORD_LENGTH = 64

const wordPattern = /[\p{L}\p{N}]+/gu

/** The words of a text: runs of letters and digits, lower-cased, accents removed. */
export const wordsOf = (text: string): ReadonlyArray<string> =>
  (text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().match(wordPattern) ?? []).filter((w) => w.length <= MAX_WORD_LENGTH)

export const isStopWord = (word: string): boolean => stopWords.has(word)

/**
 * The lexemes of a text: the English stem of every word that is not a stop word, and the word
 * itself where it differs from its stem, so that a word being typed matches by prefix.
 */
export const lexemesOf = (text: string): ReadonlySet<string> => {
  const lexemes = new Set<string>()
  for (const word of wordsOf(text)) {
    if (stopWords.has(word)) continue
    const stemmed = stem(word)
    lexemes.add(stemmed)
    if (stemmed !== word) lexemes.add(word)
  }
  return lexemes
}

// Every pattern below runs in time linear in its input (no nested or overlapping quantifiers, and
// none that can cross a line), because pages of up to a million characters are indexed inline.
const fenceLine = /^[ \t]*(?:`{3,}|~{3,})/
const quotePrefix = /^[ \t]{0,3}(?:>[ \t]?)+/
const listMarker = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/
const image = /!\[([^[\]\n]*)\]\([^()\n]*\)/g
const link = /\[([^[\]\n]*)\]\([^()\n]*\)/g
const tag = /<[^<>\n]+>/g

/** A table's delimiter row (`| --- | :-: |`): only pipes, colons, hyphens and blanks, with a `---`. */
const isDelimiterRow = (line: string): boolean => line.includes("---") && /^[ \t|:-]+$/.test(line)

/** Markdown as the words a reader sees: link targets, markup and HTML tags removed. */
export const plainText = (markdown: string): string =>
  markdown
    .split("\n")
    .map((line) => fenceLine.test(line) || isDelimiterRow(line) ? " " : line.replace(quotePrefix, "").replace(listMarker, ""))
    .join("\n")
    .replace(image, "$1")
    .replace(link, "$1")
    .replace(tag, " ")
    .replace(/[*_~`|]+/g, " ")
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, "$1")
    .replace(/\s+/g, " ")
    .trim()

/** A heading's anchor: lower-case words joined by hyphens. */
export const anchorOf = (heading: string): string =>
  heading
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")

const headingPattern = /^ {0,3}#{1,6}[ \t]+(.*)$/

/** A heading line's text without its optional closing `#`s (`## Setup ##`), in linear time. */
const headingText = (line: string): string | undefined => {
  const match = headingPattern.exec(line)
  if (match === null) return undefined
  const text = (match[1] ?? "").trimEnd()
  let end = text.length
  while (end > 0 && text[end - 1] === "#") end--
  // Closing hashes count only after a blank, or as the whole text.
  return end === 0 ? "" : end < text.length && (text[end - 1] === " " || text[end - 1] === "\t") ? text.slice(0, end).trimEnd() : text
}
const fencePattern = /^ {0,3}(`{3,}|~{3,})/

/**
 * A page's sections: the text before its first heading (titled as the page), then each heading
 * with the body under it. Headings inside fenced code do not count. Empty leading text is left
 * out; anchors repeated in a page get `-1`, `-2`… as readers' browsers expect.
 */
export const sectionsOf = (page: Pick<ContentPage, "id" | "title" | "markdown">): ReadonlyArray<Section> => {
  const sections: Array<Section> = []
  const used = new Map<string, number>()
  let title = page.title
  let anchor = ""
  let lines: Array<string> = []
  let fence: string | undefined
  const close = () => {
    const body = plainText(lines.join("\n"))
    if (anchor !== "" || body !== "") sections.push({ id: anchor === "" ? page.id : anchor, title, anchor, body })
  }
  for (const line of page.markdown.split(/\r?\n/)) {
    const opening = fencePattern.exec(line)
    if (opening !== null) {
      const marker = opening[1] ?? ""
      if (fence === undefined) fence = marker
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
      lines.push(line)
      continue
    }
    const heading = fence === undefined ? headingText(line) : undefined
    if (heading === undefined) {
      lines.push(line)
      continue
    }
    close()
    title = plainText(heading)
    const base = anchorOf(title) || "section"
    const seen = used.get(base) ?? 0
    used.set(base, seen + 1)
    anchor = seen === 0 ? base : `${base}-${seen}`
    lines = []
  }
  close()
  return sections
}
