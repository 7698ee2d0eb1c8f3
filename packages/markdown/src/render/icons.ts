// Font Awesome's free icons, shipped in the package (no CDN): `<i class="fa-rocket">` as inline SVG.
import { fab } from "@fortawesome/free-brands-svg-icons"
import { far } from "@fortawesome/free-regular-svg-icons"
import { fas } from "@fortawesome/free-solid-svg-icons"
import type { Element } from "hast"

type Style = "solid" | "regular" | "brands"

interface Glyph {
  readonly width: number
  readonly height: number
  readonly path: string
}

type Pack = Readonly<
  Record<
    string,
    {
      readonly iconName: string
      readonly icon: readonly [number, number, ReadonlyArray<string | number>, string, string | ReadonlyArray<string>]
    }
  >
>

/** Each icon of a set by its name and by each of its aliases. */
const index = (pack: Pack): ReadonlyMap<string, Glyph> => {
  const glyphs = new Map<string, Glyph>()
  for (const definition of Object.values(pack)) {
    const [width, height, aliases, , path] = definition.icon
    const glyph = { width, height, path: typeof path === "string" ? path : path.join(" ") }
    glyphs.set(definition.iconName, glyph)
    for (const alias of aliases) if (typeof alias === "string" && !glyphs.has(alias)) glyphs.set(alias, glyph)
  }
  return glyphs
}

let sets: Readonly<Record<Style, ReadonlyMap<string, Glyph>>> | undefined
// Built on the first icon a page shows: three thousand icons are not indexed for pages without any.
const setsOf = () => (sets ??= { solid: index(fas as Pack), regular: index(far as Pack), brands: index(fab as Pack) })

const styles: Readonly<Record<string, Style>> = {
  "fa-solid": "solid",
  fas: "solid",
  "fa-regular": "regular",
  far: "regular",
  "fa-brands": "brands",
  fab: "brands"
}

// Classes that say how an icon is drawn, not which: Font Awesome's styles, sizes and animations.
const modifiers =
  /^fa-(?:solid|regular|light|thin|duotone|brands|sharp|sharp-duotone|fw|xs|sm|lg|xl|2xs|2xl|\d+x|spin|pulse|beat|fade|bounce|flip|shake|border|inverse|rotate-\d+|flip-\w+|pull-\w+|stack(?:-\dx)?|li)$/

/** The icon that classes like `fa-rocket`, `fa-solid fa-rocket` or `fab fa-github` name; undefined when the free sets lack it. */
export const iconOf = (classes: ReadonlyArray<string>): Glyph | undefined => {
  const name = classes.find((c) => c.startsWith("fa-") && !modifiers.test(c))?.slice(3)
  if (name === undefined) return undefined
  const style = classes.map((c) => styles[c]).find((s) => s !== undefined)
  const all = setsOf()
  // GitBook writes the bare name: solid first, as Font Awesome's own default.
  const order: ReadonlyArray<Style> = style === undefined ? ["solid", "regular", "brands"] : [style, "solid", "regular", "brands"]
  for (const s of order) {
    const glyph = all[s].get(name)
    if (glyph !== undefined) return glyph
  }
  return undefined
}

/** An icon as an SVG element that takes the text's size and colour. */
export const iconSvg = (glyph: Glyph, classes: ReadonlyArray<string> = []): Element => ({
  type: "element",
  tagName: "svg",
  properties: {
    className: ["icon", ...classes],
    viewBox: `0 0 ${glyph.width} ${glyph.height}`,
    ariaHidden: "true",
    focusable: "false",
    fill: "currentColor"
  },
  children: [{ type: "element", tagName: "path", properties: { d: glyph.path }, children: [] }]
})
