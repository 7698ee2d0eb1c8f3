import { Effect } from "effect"
import { SiteRepository, SiteStructureRepository, type StructureWrites } from "./Ports.js"
import type { SiteTree } from "./Site.js"

/**
 * Writes what a transition of `Structure` changed: the site if it is a new object, the items that
 * are new objects (transitions copy only what they change), and the items that are gone.
 */
export const commitTree = (before: SiteTree, after: SiteTree) =>
  Effect.gen(function*() {
    const sites = yield* SiteRepository
    const structures = yield* SiteStructureRepository
    if (after.site !== before.site) yield* sites.update(after.site)
    const diff = <A extends { readonly id: string }>(was: ReadonlyArray<A>, is: ReadonlyArray<A>) => {
      const kept = new Set(was)
      const ids = new Set(is.map((x) => x.id))
      return { put: is.filter((x) => !kept.has(x)), removed: was.filter((x) => !ids.has(x.id)).map((x) => x.id) }
    }
    const writes = {
      sections: diff(before.sections, after.sections),
      groups: diff(before.groups, after.groups),
      siteSpaces: diff(before.siteSpaces, after.siteSpaces)
    } as unknown as StructureWrites
    if (Object.values(writes).some((w) => w.put.length > 0 || w.removed.length > 0)) yield* structures.write(writes)
  })
