import type { ImageType } from "./Integration.js"

/** The bytes of base64 text that Base64Image has checked already. */
export const decodeBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>, at = 0) => prefix.every((b, i) => bytes[at + i] === b)

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0))

// An SVG document: an optional XML declaration, comments and doctype, then its <svg> element.
const svgStart = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>/]/i

/** What the bytes are by their first bytes (PNG, JPEG, WebP) or their opening (SVG); undefined for anything else. */
export const sniffImage = (bytes: Uint8Array): ImageType | undefined => {
  // Past the signature, the chunk every PNG opens with (IHDR, 13 bytes) and the chunk a WebP's first must be.
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...ascii("IHDR")])) return "image/png"
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg"
  if (
    startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8) &&
    ["VP8 ", "VP8L", "VP8X"].some((chunk) => startsWith(bytes, ascii(chunk), 12))
  ) return "image/webp"
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, 4096))
    if (svgStart.test(text)) return "image/svg+xml"
  } catch {
    // Not UTF-8 text: not an SVG either.
  }
  return undefined
}

/**
 * The lower-cased host of a URL pattern (`https://*.figma.com/file/*` gives `figma.com`), or undefined
 * when it names none.
 */
export const hostOfPattern = (pattern: string): string | undefined => {
  const afterScheme = pattern.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
  const authority = afterScheme.split(/[/?#]/)[0] ?? ""
  const host = (authority.split("@").pop() ?? "").replace(/:\d*$/, "").replace(/^(\*\.)+/, "").toLowerCase()
  return /^[a-z0-9-_.]+$/.test(host) ? host : undefined
}

/** Whether `domain` is the host or one of its parent domains. */
export const domainCovers = (domain: string, host: string): boolean => {
  const d = domain.toLowerCase()
  return host === d || host.endsWith(`.${d}`)
}
