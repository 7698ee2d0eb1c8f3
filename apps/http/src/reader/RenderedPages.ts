import type { Rendered } from "@octavo/markdown"
import { Context, Layer } from "effect"

/** How many rendered bodies the reader keeps: those of the pages read last. */
const MAX_RENDERED = 500

/**
 * Rendered bodies of the pages read last. A body depends on the page's markdown and on where its links
 * lead, which the revision (immutable) and the page's address on the site decide: that is the key.
 */
export class RenderedPages extends Context.Tag("@octavo/http/reader/RenderedPages")<RenderedPages, {
  /** The body kept under `key`, else `render`'s, kept in place of the one kept longest when full. */
  readonly renderedOnce: (key: string, render: () => Rendered) => Rendered
}>() {
  /** A cache of its own per server. */
  static readonly layer = Layer.sync(RenderedPages, () => {
    const rendered = new Map<string, Rendered>()
    return RenderedPages.of({
      renderedOnce: (key, render) => {
        const known = rendered.get(key)
        if (known !== undefined) return known
        const made = render()
        rendered.set(key, made)
        if (rendered.size > MAX_RENDERED) rendered.delete(rendered.keys().next().value as string)
        return made
      }
    })
  })
}
