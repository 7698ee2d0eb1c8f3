/**
 * The Snowball English stemmer ("Porter2"), written from the published description of the
 * algorithm (snowballstem.org, algorithms/english). The step names below are the description's.
 *
 * The word is a string that only ever loses or swaps a suffix, so the regions R1 and R2 stay
 * valid as positions from its start; every check reads characters by position, and the suffix
 * tables are built once, grouped by their last letter.
 */

const APOSTROPHE = 39
const LOWER_A = 97
const LOWER_Z = 122

// Indexed by character code: "y" is a vowel, the marked consonant "Y" is not.
const VOWELS = new Uint8Array(128)
for (const c of "aeiouy") VOWELS[c.charCodeAt(0)] = 1

// Letters that end a stem before a "li" that step 2 removes.
const LI_ENDINGS = new Uint8Array(128)
for (const c of "cdeghkmnrt") LI_ENDINGS[c.charCodeAt(0)] = 1

/** Whether the character at i is a vowel; false past either end of the word. */
const isVowelAt = (word: string, i: number): boolean => VOWELS[word.charCodeAt(i)] === 1

/** Whether the input is one the algorithm is defined for: letters a-z and apostrophes. */
const isEnglishWord = (word: string): boolean => {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i)
    if ((c < LOWER_A || c > LOWER_Z) && c !== APOSTROPHE) return false
  }
  return true
}

// Exceptional forms: words stemmed to these fixed results, or left as they are.
const exceptions: ReadonlyMap<string, string> = new Map([
  ["skis", "ski"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["idly", "idl"],
  ["gently", "gentl"],
  ["ugly", "ugli"],
  ["early", "earli"],
  ["only", "onli"],
  ["singly", "singl"],
  ["sky", "sky"],
  ["news", "news"],
  ["howe", "howe"],
  ["atlas", "atlas"],
  ["cosmos", "cosmos"],
  ["bias", "bias"],
  ["andes", "andes"]
])

// Words that, once step 1a has run, are left as they are.
const invariantAfterStep1a: ReadonlySet<string> = new Set([
  "inning",
  "outing",
  "canning",
  "herring",
  "earring",
  "proceed",
  "exceed",
  "succeed"
])

// Prefixes after which R1 starts, instead of after the first vowel-consonant pair.
const r1Prefixes: ReadonlyArray<string> = ["gener", "commun", "arsen"]

/** The marked consonant y (at the start, or after a vowel) as "Y", so that it is no vowel. */
const markConsonantY = (word: string): string => {
  if (!word.includes("y")) return word
  let marked = ""
  let previousIsVowel = false
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!
    // A "y" is a consonant at the start of a word, or after a vowel (a marked "Y" is not one).
    const consonantY: boolean = c === "y" && (i === 0 || previousIsVowel)
    marked += consonantY ? "Y" : c
    previousIsVowel = !consonantY && VOWELS[word.charCodeAt(i)] === 1
  }
  return marked
}

/** Where the region after the first non-vowel following a vowel, searched from `from`, starts. */
const regionAfter = (word: string, from: number): number => {
  let i = from
  while (i < word.length && !isVowelAt(word, i)) i++
  i++
  while (i < word.length && isVowelAt(word, i)) i++
  return Math.min(i + 1, word.length)
}

const r1Of = (word: string): number => {
  for (const prefix of r1Prefixes) if (word.startsWith(prefix)) return prefix.length
  return regionAfter(word, 0)
}

/**
 * Whether the word's first `end` characters end in a short syllable: a non-vowel, a vowel and a
 * non-vowel other than w, x or Y; or, at the start of the word, a vowel and a non-vowel.
 */
const endsInShortSyllable = (word: string, end: number): boolean => {
  if (end === 2) return isVowelAt(word, 0) && !isVowelAt(word, 1)
  if (end < 3 || isVowelAt(word, end - 3) || !isVowelAt(word, end - 2) || isVowelAt(word, end - 1)) return false
  const last = word[end - 1]
  return last !== "w" && last !== "x" && last !== "Y"
}

/** Whether a vowel occurs before position `end`. */
const hasVowelBefore = (word: string, end: number): boolean => {
  for (let i = 0; i < end; i++) if (isVowelAt(word, i)) return true
  return false
}

const step0 = (word: string): string => {
  if (word.endsWith("'s'")) return word.slice(0, -3)
  if (word.endsWith("'s")) return word.slice(0, -2)
  if (word.endsWith("'")) return word.slice(0, -1)
  return word
}

const step1a = (word: string): string => {
  if (word.endsWith("sses")) return word.slice(0, -2)
  if (word.endsWith("ied") || word.endsWith("ies")) return word.length > 4 ? word.slice(0, -2) : word.slice(0, -1)
  if (word.endsWith("us") || word.endsWith("ss") || !word.endsWith("s")) return word
  // The s goes where a vowel occurs before the letter preceding it: gaps → gap, but gas stays.
  return hasVowelBefore(word, word.length - 2) ? word.slice(0, -1) : word
}

const doubles: ReadonlySet<string> = new Set(["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"])

// Longest first: "eedly" before "edly", "eed" before "ed".
const step1bSuffixes: ReadonlyArray<string> = ["eedly", "ingly", "edly", "eed", "ing", "ed"]

const step1b = (word: string, r1: number): string => {
  const suffix = step1bSuffixes.find((s) => word.endsWith(s))
  if (suffix === undefined) return word
  const start = word.length - suffix.length
  if (suffix === "eed" || suffix === "eedly") return start >= r1 ? word.slice(0, start) + "ee" : word
  if (!hasVowelBefore(word, start)) return word
  const stem = word.slice(0, start)
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return stem + "e"
  if (doubles.has(stem.slice(-2))) return stem.slice(0, -1)
  // A short word (an empty R1, ending in a short syllable) gets its e back: hoping → hope.
  return r1 === stem.length && endsInShortSyllable(stem, stem.length) ? stem + "e" : stem
}

const step1c = (word: string): string => {
  const last = word[word.length - 1]
  if ((last !== "y" && last !== "Y") || word.length < 3 || isVowelAt(word, word.length - 2)) return word
  return word.slice(0, -1) + "i"
}

/** A suffix rule of steps 2 to 4: the suffix, what replaces it, and any further condition. */
interface Rule {
  readonly suffix: string
  readonly replacement: string
  readonly when?: (word: string, start: number, r2: number) => boolean
}

/** Rules by the last letter of their suffix, longest suffix first, so the first match is the longest. */
type Rules = ReadonlyMap<string, ReadonlyArray<Rule>>

const rulesOf = (rules: ReadonlyArray<Rule>): Rules => {
  const byLast = new Map<string, Array<Rule>>()
  for (const rule of rules) {
    const last = rule.suffix[rule.suffix.length - 1]!
    const group = byLast.get(last) ?? []
    group.push(rule)
    byLast.set(last, group)
  }
  for (const group of byLast.values()) group.sort((a, b) => b.suffix.length - a.suffix.length)
  return byLast
}

const rule = (suffixes: string, replacement: string, when?: Rule["when"]): ReadonlyArray<Rule> =>
  suffixes.split(" ").map((suffix) => (when === undefined ? { suffix, replacement } : { suffix, replacement, when }))

const precededBy = (letters: string) => (word: string, start: number): boolean => {
  const before = word[start - 1]
  return before !== undefined && letters.includes(before)
}

/**
 * The longest suffix of the word that has a rule: replaced when it lies in the region starting
 * at `region` and meets the rule's condition. A shorter suffix is never tried instead.
 */
const replaceLongest = (rules: Rules, word: string, region: number, r2: number): string => {
  const candidates = rules.get(word[word.length - 1] ?? "")
  if (candidates === undefined) return word
  for (const { replacement, suffix, when } of candidates) {
    if (!word.endsWith(suffix)) continue
    const start = word.length - suffix.length
    if (start < region || (when !== undefined && !when(word, start, r2))) return word
    return word.slice(0, start) + replacement
  }
  return word
}

const step2Rules = rulesOf([
  ...rule("tional", "tion"),
  ...rule("enci", "ence"),
  ...rule("anci", "ance"),
  ...rule("abli", "able"),
  ...rule("entli", "ent"),
  ...rule("izer ization", "ize"),
  ...rule("ational ation ator", "ate"),
  ...rule("alism aliti alli", "al"),
  ...rule("fulness", "ful"),
  ...rule("ousli ousness", "ous"),
  ...rule("iveness iviti", "ive"),
  ...rule("biliti bli", "ble"),
  ...rule("ogi", "og", precededBy("l")),
  ...rule("fulli", "ful"),
  ...rule("lessli", "less"),
  ...rule("li", "", (word, start) => LI_ENDINGS[word.charCodeAt(start - 1)] === 1)
])

const step3Rules = rulesOf([
  ...rule("tional", "tion"),
  ...rule("ational", "ate"),
  ...rule("alize", "al"),
  ...rule("icate iciti ical", "ic"),
  ...rule("ful ness", ""),
  ...rule("ative", "", (_, start, r2) => start >= r2)
])

const step4Rules = rulesOf([
  ...rule("al ance ence er ic able ible ant ement ment ent ism ate iti ous ive ize", ""),
  ...rule("ion", "", precededBy("st"))
])

const step5 = (word: string, r1: number, r2: number): string => {
  const start = word.length - 1
  if (word.endsWith("e")) {
    return start >= r2 || (start >= r1 && !endsInShortSyllable(word, start)) ? word.slice(0, start) : word
  }
  if (word.endsWith("ll") && start >= r2) return word.slice(0, start)
  return word
}

const unmarkY = (word: string): string => (word.includes("Y") ? word.replaceAll("Y", "y") : word)

/** The English stem of a lower-case word of letters a-z (and apostrophes); other input is returned unchanged. */
export const stem = (word: string): string => {
  if (word.length <= 2 || !isEnglishWord(word)) return word
  const exceptional = exceptions.get(word)
  if (exceptional !== undefined) return exceptional

  const marked = markConsonantY(word.charCodeAt(0) === APOSTROPHE ? word.slice(1) : word)
  const r1 = r1Of(marked)
  const r2 = regionAfter(marked, r1)

  const afterStep1a = step1a(step0(marked))
  if (invariantAfterStep1a.has(afterStep1a)) return afterStep1a

  let stemmed = step1c(step1b(afterStep1a, r1))
  stemmed = replaceLongest(step2Rules, stemmed, r1, r2)
  stemmed = replaceLongest(step3Rules, stemmed, r1, r2)
  stemmed = replaceLongest(step4Rules, stemmed, r2, r2)
  return unmarkY(step5(stemmed, r1, r2))
}
