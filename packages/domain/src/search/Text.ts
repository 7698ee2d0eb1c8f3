import { anchorOf as githubAnchor, plainText as textOf, type Section as MarkdownSection, sections } from "@octavo/markdown"
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

/** Markdown as the words a reader sees (link targets, markup and HTML tags removed), on one line. */
export const plainText = (markdown: string): string => textOf(markdown)

/** A heading's anchor, as GitHub makes it. */
export const anchorOf = (heading: string): string => githubAnchor(heading)

/**
 * A page's sections: the text before its first heading (titled as the page, left out when empty),
 * then each heading with the body under it. Headings inside code do not count; anchors repeated in
 * a page get `-1`, `-2`… as readers' browsers expect.
 */
export const sectionsOf = (
  page: Pick<ContentPage, "id" | "title" | "markdown">,
  parts: ReadonlyArray<MarkdownSection> = sections(page.markdown)
): ReadonlyArray<Section> =>
  parts.map((section) =>
    section.heading === undefined
      ? { id: page.id, title: page.title, anchor: "", body: section.text }
      : { id: section.anchor, title: section.heading, anchor: section.anchor, body: section.text }
  )
