import { Effect } from "effect"
import { InvalidInput } from "../shared/Errors.js"
import { SiteSectionGroupId, SiteSectionId, SiteSpaceId, type SpaceId } from "../shared/Ids.js"
import type { Localized } from "../shared/Languages.js"
import { keyBetween } from "../shared/Position.js"
import type { Site, SiteSection, SiteSectionGroup, SiteSpace, SiteTree } from "./Site.js"
import { structureProblems } from "./Structure.js"

/**
 * A whole site structure described at once (a site's Git Sync configuration is one): what the site is to become, each
 * item named by the describer's own `ref` and by the id it was given before, when it has one. `declareStructure` turns
 * it into the site's next tree, keeping every item that did not change (and so writing nothing for it), and answers
 * the id of every `ref`.
 */
export interface DeclaredSiteSpace {
  readonly ref: string
  readonly id?: SiteSpaceId | undefined
  readonly spaceId: SpaceId
  readonly path: string
  readonly condition: string | null
  readonly hidden: boolean
  readonly localizedTitle: Localized
  readonly isDefault: boolean
}

export interface DeclaredSection {
  readonly ref: string
  readonly id?: SiteSectionId | undefined
  readonly title: string
  readonly localizedTitle: Localized
  readonly description: string | null
  readonly localizedDescription: Localized
  readonly icon: string | null
  readonly path: string
  readonly condition: string | null
  readonly isDefault: boolean
  readonly siteSpaces: ReadonlyArray<DeclaredSiteSpace>
}

export interface DeclaredGroup {
  readonly ref: string
  readonly id?: SiteSectionGroupId | undefined
  readonly title: string
  readonly localizedTitle: Localized
  readonly icon: string | null
  readonly sections: ReadonlyArray<DeclaredSection>
}

export interface DeclaredStructure {
  readonly title: string
  /** Sections and groups in order; empty when the site lists its spaces at its root. */
  readonly items: ReadonlyArray<({ readonly kind: "section" } & DeclaredSection) | ({ readonly kind: "group" } & DeclaredGroup)>
  /** The root's site spaces, when the site has no sections. */
  readonly siteSpaces: ReadonlyArray<DeclaredSiteSpace>
}

/** Fresh ids, one per item that has none yet. */
export type NewIds = () => Effect.Effect<string>

/** Whether two of an item's fields hold the same: dates by time, texts by language, the rest by value. */
const sameField = (a: unknown, b: unknown): boolean => {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && (a as Localized)[key] === (b as Localized)[key])
}

/** `next` where it differs from `was` in a field, else `was` itself (so that the commit writes nothing for it). */
const keepSame = <A extends object>(was: A | undefined, next: A): A => {
  if (was === undefined) return next
  for (const key of Object.keys(next) as Array<keyof A>) if (!sameField(was[key], next[key])) return next
  return was
}

/** Order keys for `n` siblings, the same each time for the same count (a structure declared again writes nothing). */
const positions = (n: number): Array<string> => {
  const keys: Array<string> = []
  for (let i = 0; i < n; i++) keys.push(keyBetween(keys[i - 1], undefined))
  return keys
}

/**
 * The tree a declared structure makes of `tree`: items declared with an id of the tree are updated in place, the
 * others created; items of the tree no longer declared leave the site (their spaces stay). Fails, naming the rule,
 * when the declared structure breaks one (`structureProblems`).
 */
export const declareStructure = (
  tree: SiteTree,
  declared: DeclaredStructure,
  fresh: NewIds,
  at: Date
): Effect.Effect<{ readonly tree: SiteTree; readonly ids: ReadonlyMap<string, string> }, InvalidInput> =>
  Effect.gen(function*() {
    const ids = new Map<string, string>()
    const sections: Array<SiteSection> = []
    const groups: Array<SiteSectionGroup> = []
    const siteSpaces: Array<SiteSpace> = []
    let defaultSectionId: SiteSectionId | null = null
    let rootDefault: SiteSpaceId | null = null

    const idOf = <A extends string>(given: A | undefined, existing: ReadonlyArray<{ readonly id: string }>, make: (s: string) => A) =>
      given !== undefined && existing.some((x) => x.id === given) ? Effect.succeed(given) : Effect.map(fresh(), make)

    const placeSiteSpaces = (scope: SiteSectionId | null, declaredSpaces: ReadonlyArray<DeclaredSiteSpace>) =>
      Effect.gen(function*() {
        const keys = positions(declaredSpaces.length)
        let chosen: SiteSpaceId | null = null
        for (const [i, d] of declaredSpaces.entries()) {
          const id = yield* idOf(d.id, tree.siteSpaces, SiteSpaceId.make)
          const was = tree.siteSpaces.find((s) => s.id === id)
          siteSpaces.push(keepSame(was, {
            id,
            siteId: tree.site.id,
            sectionId: scope,
            spaceId: d.spaceId,
            path: d.path,
            condition: d.condition,
            hidden: d.hidden,
            localizedTitle: d.localizedTitle,
            position: keys[i]!,
            createdAt: was?.createdAt ?? at
          }))
          ids.set(d.ref, id)
          if (d.isDefault || chosen === null) chosen = id
        }
        return chosen
      })

    const placeSection = (d: DeclaredSection, groupId: SiteSectionGroupId | null, position: string) =>
      Effect.gen(function*() {
        const id = yield* idOf(d.id, tree.sections, SiteSectionId.make)
        const was = tree.sections.find((s) => s.id === id)
        const defaultSiteSpaceId = yield* placeSiteSpaces(id, d.siteSpaces)
        sections.push(keepSame(was, {
          id,
          siteId: tree.site.id,
          title: d.title,
          localizedTitle: d.localizedTitle,
          description: d.description,
          localizedDescription: d.localizedDescription,
          icon: d.icon,
          path: d.path,
          condition: d.condition,
          groupId,
          position,
          defaultSiteSpaceId,
          createdAt: was?.createdAt ?? at
        }))
        ids.set(d.ref, id)
        if (d.isDefault) defaultSectionId = id
      })

    const rootKeys = positions(declared.items.length)
    for (const [i, item] of declared.items.entries()) {
      if (item.kind === "section") {
        yield* placeSection(item, null, rootKeys[i]!)
        continue
      }
      const id = yield* idOf(item.id, tree.groups, SiteSectionGroupId.make)
      const was = tree.groups.find((g) => g.id === id)
      groups.push(keepSame(was, {
        id,
        siteId: tree.site.id,
        title: item.title,
        localizedTitle: item.localizedTitle,
        icon: item.icon,
        position: rootKeys[i]!,
        createdAt: was?.createdAt ?? at
      }))
      ids.set(item.ref, id)
      const keys = positions(item.sections.length)
      for (const [j, section] of item.sections.entries()) yield* placeSection(section, id, keys[j]!)
    }
    if (sections.length === 0) rootDefault = yield* placeSiteSpaces(null, declared.siteSpaces)
    else if (defaultSectionId === null) defaultSectionId = sections[0]!.id

    const site: Site = keepSame(tree.site, {
      ...tree.site,
      title: declared.title,
      defaultSectionId,
      defaultSiteSpaceId: rootDefault,
      updatedAt: tree.site.updatedAt
    })
    const next: SiteTree = {
      site: site === tree.site ? site : { ...site, updatedAt: at },
      sections,
      groups,
      siteSpaces
    }
    const problems = structureProblems(next)
    if (problems.length > 0) return yield* new InvalidInput({ field: "structure", rule: `breaks the site's rules: ${problems.join("; ")}` })
    return { tree: next, ids }
  })
