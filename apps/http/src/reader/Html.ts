/**
 * HTML escaped by construction: `html` escapes every interpolated value unless it is already `Html`
 * (made by `html` itself, or by `trusted` for markup a renderer escaped). Arrays are joined.
 */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text
  }
}

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => entities[c]!)

type Interpolated = Html | string | number | boolean | null | undefined | ReadonlyArray<Interpolated>

const piece = (value: Interpolated): string => {
  if (value === null || value === undefined || value === false) return ""
  if (value instanceof Html) return value.text
  if (Array.isArray(value)) return (value as ReadonlyArray<Interpolated>).map(piece).join("")
  return escapeHtml(String(value))
}

export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Interpolated>): Html =>
  new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? piece(values[i]!) : ""), ""))

/** Markup already escaped by its maker (the markdown renderer). */
export const trusted = (markup: string): Html => new Html(markup)
