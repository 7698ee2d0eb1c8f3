import type { Element } from "hast"
import { fromHtml } from "hast-util-from-html"
import { visit } from "unist-util-visit"

/** The encoding a byte order mark announces; it wins over any label (WHATWG "decode"). */
const encodingOfBom = (bytes: Uint8Array): string | undefined => {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8"
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be"
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le"
  return undefined
}

/** The canonical name of an encoding label TextDecoder knows, else undefined. */
const knownEncoding = (label: string | undefined): string | undefined => {
  if (label === undefined) return undefined
  const trimmed = label.trim().replace(/^["']|["']$/g, "")
  if (trimmed === "") return undefined
  try {
    return new TextDecoder(trimmed).encoding
  } catch {
    return undefined
  }
}

/** The `charset` parameter of a content type (a header's, or a `<meta http-equiv>`'s content): MIME, not markup. */
const charsetParameter = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i
const charsetOf = (contentType: string): string | undefined => {
  const match = charsetParameter.exec(contentType)
  return match === null ? undefined : match[1] ?? match[2] ?? match[3]
}

/** The charset a `<meta charset>` or `<meta http-equiv="content-type">` of the first 1024 bytes declares. */
const declaredCharset = (bytes: Uint8Array): string | undefined => {
  // Bytes as single-byte characters: every ASCII-compatible encoding spells the markup the same way.
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, 1024))
  const metas: Array<Element> = []
  visit(fromHtml(head), "element", (element) => {
    if (element.tagName === "meta") metas.push(element)
  })
  for (const { properties } of metas) {
    const charset = properties.charSet
    if (typeof charset === "string" && charset.trim() !== "") return charset
    const equiv = Array.isArray(properties.httpEquiv) ? properties.httpEquiv.join(" ") : String(properties.httpEquiv ?? "")
    if (equiv.trim().toLowerCase() === "content-type" && typeof properties.content === "string") {
      const declared = charsetOf(properties.content)
      if (declared !== undefined) return declared
    }
  }
  return undefined
}

/**
 * The text of an HTML page's bytes: a byte order mark first, then the charset of the content type
 * (a bare label, or a whole content type with a charset parameter), then one declared in a
 * `<meta>` of the first 1024 bytes, else UTF-8. Labels TextDecoder does not know count as absent.
 */
export const decodeHtml = (bytes: Uint8Array, contentTypeCharset?: string): string => {
  const fromContentType = knownEncoding(
    contentTypeCharset === undefined ? undefined : charsetOf(contentTypeCharset) ?? contentTypeCharset
  )
  const fromMeta = knownEncoding(declaredCharset(bytes))
  // A <meta> found by reading bytes as ASCII cannot mean UTF-16 (WHATWG "prescan").
  const declared = fromMeta === "utf-16le" || fromMeta === "utf-16be" ? "utf-8" : fromMeta
  return new TextDecoder(encodingOfBom(bytes) ?? fromContentType ?? declared ?? "utf-8").decode(bytes)
}
