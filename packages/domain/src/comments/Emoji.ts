// Reactions name an emoji by the character or by its code points in hex (`1f44d`, `U+1F44D`,
// `1f468-200d-1f4bb`); either way it is stored as the character. Only RGI emoji (Unicode's
// recommended-for-interchange set, as the JavaScript engine knows it) are reactions.

// Built at run time: the `v` flag is newer than the compile target (Node 20 has it).
const rgiEmoji = new RegExp("^\\p{RGI_Emoji}$", "v")
const codePoints = /^(?:U\+)?[0-9a-f]{2,6}(?:[-_ ](?:U\+)?[0-9a-f]{2,6})*$/i

const fromHex = (text: string): string | undefined => {
  if (!codePoints.test(text)) return undefined
  const points = text.split(/[-_ ]/).map((part) => Number.parseInt(part.replace(/^U\+/i, ""), 16))
  if (points.some((point) => point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff))) return undefined
  return String.fromCodePoint(...points)
}

/** The emoji `text` names, as its character; undefined when it names none. */
export const normalizeEmoji = (text: string): string | undefined => {
  const trimmed = text.trim()
  const candidate = rgiEmoji.test(trimmed) ? trimmed : fromHex(trimmed) ?? trimmed
  if (rgiEmoji.test(candidate)) return candidate
  // An emoji written without its variation selector (`❤` for `❤️`) is the emoji.
  const qualified = `${candidate}\uFE0F`
  return rgiEmoji.test(qualified) ? qualified : undefined
}
