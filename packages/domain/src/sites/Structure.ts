import { slugify } from "@octavo/markdown"
import { Effect } from "effect"
import { Conflict, InvalidInput, NotFound, PreconditionFailed } from "../shared/Errors.js"
import type { SiteSectionGroupId, SiteSectionId, SiteSpaceId, SpaceId } from "../shared/Ids.js"
import type { Localized } from "../shared/Languages.js"
import { inOrder, keyBetween, type NamedSibling, type Placed, placeAmongSiblings } from "../shared/Position.js"
import type {
  SiteSection,
  SiteSectionGroup,
  SiteSectionPosition,
  SiteSectionRef,
  SiteSpace,
  SiteSpacePosition,
  SiteTree
} from "./Site.js"

/**
 * A site's structure and its rules (conventions-2.md §1.1 and §1.2), as pure transitions from one
 * tree to the next: the use cases load the tree under the site's lock, apply one, and write what
 * changed. The invariants they keep (`structureProblems`): one default per non-empty scope, paths
 * unique per scope, a space once per scope, order keys unique among siblings.
 */

type StructureError = InvalidInput | Conflict | PreconditionFailed | NotFound

/** Where site spaces live: the site's root (null) or a section. */
export type Scope = SiteSectionId | null

export const hasSections = (tree: SiteTree): boolean => tree.sections.length > 0

export const siteSpacesIn = (tree: SiteTree, scope: Scope): Array<SiteSpace> =>
  inOrder(tree.siteSpaces.filter((s) => s.sectionId === scope))

/** The default site space of a scope, as stored. */
export const defaultOf = (tree: SiteTree, scope: Scope): SiteSpaceId | null =>
  scope === null ? tree.site.defaultSiteSpaceId : tree.sections.find((s) => s.id === scope)?.defaultSiteSpaceId ?? null

/** The root's items (sections outside groups, and groups) in order. */
export const rootItems = (
  tree: SiteTree
): Array<(SiteSection & { readonly kind: "section" }) | (SiteSectionGroup & { readonly kind: "group" })> =>
  inOrder([
    ...tree.sections.filter((s) => s.groupId === null).map((s) => ({ ...s, kind: "section" as const })),
    ...tree.groups.map((g) => ({ ...g, kind: "group" as const }))
  ])

export const sectionsIn = (tree: SiteTree, groupId: SiteSectionGroupId): Array<SiteSection> =>
  inOrder(tree.sections.filter((s) => s.groupId === groupId))

/** Every section in the order readers meet them: the root's items, a group standing for its sections. */
export const sectionsInOrder = (tree: SiteTree): Array<SiteSection> =>
  rootItems(tree).flatMap((item) => (item.kind === "group" ? sectionsIn(tree, item.id) : [tree.sections.find((s) => s.id === item.id)!]))

const findSiteSpace = (tree: SiteTree, id: SiteSpaceId) => {
  const found = tree.siteSpaces.find((s) => s.id === id)
  return found === undefined ? Effect.fail(new NotFound({ entity: "site space", id })) : Effect.succeed(found)
}

const findSection = (tree: SiteTree, id: SiteSectionId) => {
  const found = tree.sections.find((s) => s.id === id)
  return found === undefined ? Effect.fail(new NotFound({ entity: "site section", id })) : Effect.succeed(found)
}

const findGroup = (tree: SiteTree, id: SiteSectionGroupId) => {
  const found = tree.groups.find((g) => g.id === id)
  return found === undefined ? Effect.fail(new NotFound({ entity: "site section group", id })) : Effect.succeed(found)
}

/** A section or group named in a body: unknown is a 400, not a 404. */
const named = <A>(found: Effect.Effect<A, NotFound>, field: string, what: string) =>
  Effect.mapError(found, (e) => new InvalidInput({ field, rule: `${e.id} is not ${what} of this site` }))

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** `wanted`, or `wanted-2`, `-3`, … : the first not taken (case-insensitively), within 100 characters. */
const freePath = (wanted: string, taken: ReadonlyArray<string>): string => {
  const lower = new Set(taken.map((t) => t.toLowerCase()))
  if (!lower.has(wanted.toLowerCase())) return wanted
  for (let n = 2;; n++) {
    const suffix = `-${n}`
    const candidate = wanted.slice(0, 100 - suffix.length) + suffix
    if (!lower.has(candidate.toLowerCase())) return candidate
  }
}

const withSite = (tree: SiteTree, site: Partial<SiteTree["site"]>): SiteTree => ({ ...tree, site: { ...tree.site, ...site } })
const replaceSection = (tree: SiteTree, section: SiteSection): SiteTree => ({
  ...tree,
  sections: tree.sections.map((s) => (s.id === section.id ? section : s))
})
const replaceSiteSpace = (tree: SiteTree, siteSpace: SiteSpace): SiteTree => ({
  ...tree,
  siteSpaces: tree.siteSpaces.map((s) => (s.id === siteSpace.id ? siteSpace : s))
})

const setDefault = (tree: SiteTree, scope: Scope, id: SiteSpaceId | null): SiteTree => {
  if (scope === null) return withSite(tree, { defaultSiteSpaceId: id })
  const section = tree.sections.find((s) => s.id === scope)
  return section === undefined ? tree : replaceSection(tree, { ...section, defaultSiteSpaceId: id })
}

/** The item that takes a removed item's place as default: the next one, else the one before. */
const successor = <A extends Placed>(ordered: ReadonlyArray<A>, removedId: string): A | undefined => {
  const i = ordered.findIndex((x) => x.id === removedId)
  return ordered[i + 1] ?? ordered[i - 1]
}

const endOf = (items: ReadonlyArray<Placed>): string => keyBetween(inOrder(items).at(-1)?.position, undefined)

/** The scope a new site space goes to: the named section, the default section, or the root. */
const scopeFor = (tree: SiteTree, sectionId: SiteSectionId | undefined): Effect.Effect<Scope, InvalidInput> => {
  if (!hasSections(tree)) {
    return sectionId === undefined
      ? Effect.succeed(null)
      : Effect.fail(new InvalidInput({ field: "sectionId", rule: "the site has no sections" }))
  }
  if (sectionId === undefined) return Effect.succeed(tree.site.defaultSectionId)
  return Effect.map(named(findSection(tree, sectionId), "sectionId", "a section"), (s) => s.id)
}

/** Adds a site space for `spaceId` at the end of its scope; the first of a scope becomes its default. */
export const addSiteSpace = (
  tree: SiteTree,
  input: {
    readonly id: SiteSpaceId
    readonly spaceId: SpaceId
    readonly spaceTitle: string
    readonly sectionId?: SiteSectionId | undefined
    readonly at: Date
  }
): Effect.Effect<{ readonly tree: SiteTree; readonly siteSpace: SiteSpace }, StructureError> =>
  Effect.gen(function*() {
    const scope = yield* scopeFor(tree, input.sectionId)
    const siblings = siteSpacesIn(tree, scope)
    if (siblings.some((s) => s.spaceId === input.spaceId)) {
      return yield* new Conflict({ reason: `The space ${input.spaceId} is in this ${scope === null ? "site" : "section"} already` })
    }
    const siteSpace: SiteSpace = {
      id: input.id,
      siteId: tree.site.id,
      sectionId: scope,
      spaceId: input.spaceId,
      path: freePath(slugify(input.spaceTitle, "space"), siblings.map((s) => s.path)),
      condition: null,
      hidden: false,
      localizedTitle: {},
      position: endOf(siblings),
      createdAt: input.at
    }
    const added: SiteTree = { ...tree, siteSpaces: [...tree.siteSpaces, siteSpace] }
    return { tree: defaultOf(tree, scope) === null ? setDefault(added, scope, siteSpace.id) : added, siteSpace }
  })

export const updateSiteSpace = (
  tree: SiteTree,
  id: SiteSpaceId,
  input: {
    readonly path?: string | undefined
    readonly condition?: string | null | undefined
    readonly hidden?: boolean | undefined
    readonly localizedTitle?: Localized | undefined
  }
): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    const siteSpace = yield* findSiteSpace(tree, id)
    const path = input.path
    if (path !== undefined && siteSpacesIn(tree, siteSpace.sectionId).some((s) => s.id !== id && same(s.path, path))) {
      return yield* new Conflict({
        reason: `Another site space in this ${siteSpace.sectionId === null ? "site" : "section"} has the path ${path}`
      })
    }
    return replaceSiteSpace(tree, {
      ...siteSpace,
      path: path ?? siteSpace.path,
      condition: input.condition === undefined ? siteSpace.condition : input.condition,
      hidden: input.hidden ?? siteSpace.hidden,
      localizedTitle: input.localizedTitle ?? siteSpace.localizedTitle
    })
  })

export const moveSiteSpace = (
  tree: SiteTree,
  id: SiteSpaceId,
  position: SiteSpacePosition | undefined
): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    const siteSpace = yield* findSiteSpace(tree, id)
    const others = siteSpacesIn(tree, siteSpace.sectionId).filter((s) => s.id !== id)
    const ref = (r: { readonly siteSpace: string } | undefined): NamedSibling | undefined =>
      r === undefined ? undefined : { id: r.siteSpace, field: "siteSpace" }
    const key = yield* placeAmongSiblings(others, { before: ref(position?.before), after: ref(position?.after) })
    return replaceSiteSpace(tree, { ...siteSpace, position: key })
  })

/** Removes a site space; the default's place goes to the next. The last of a section stays (412). */
export const removeSiteSpace = (tree: SiteTree, id: SiteSpaceId): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    const siteSpace = yield* findSiteSpace(tree, id)
    const siblings = siteSpacesIn(tree, siteSpace.sectionId)
    if (siteSpace.sectionId !== null && siblings.length === 1) {
      return yield* new PreconditionFailed({
        reason: "This is the last site space of its section: delete the section instead"
      })
    }
    return dropSiteSpaces(tree, [siteSpace])
  })

/** Drops site spaces without the last-of-a-section rule (a purged space), promoting defaults. */
const dropSiteSpaces = (tree: SiteTree, dropped: ReadonlyArray<SiteSpace>): SiteTree =>
  dropped.reduce((current, siteSpace) => {
    const scope = siteSpace.sectionId
    const next = defaultOf(current, scope) === siteSpace.id
      ? setDefault(current, scope, successor(siteSpacesIn(current, scope), siteSpace.id)?.id ?? null)
      : current
    return { ...next, siteSpaces: next.siteSpaces.filter((s) => s.id !== siteSpace.id) }
  }, tree)

/** A space purged for good: its site spaces go, wherever they are. */
export const dropSpace = (tree: SiteTree, spaceId: SpaceId): SiteTree =>
  dropSiteSpaces(tree, tree.siteSpaces.filter((s) => s.spaceId === spaceId))

/** The site's default site space (§1 PATCH): a root site space, or one of the default section. */
export const setSiteDefaultSiteSpace = (tree: SiteTree, id: SiteSpaceId): Effect.Effect<SiteTree, StructureError> => {
  const siteSpace = tree.siteSpaces.find((s) => s.id === id)
  const scope: Scope = hasSections(tree) ? tree.site.defaultSectionId : null
  if (siteSpace === undefined || siteSpace.sectionId !== scope) {
    return Effect.fail(
      new InvalidInput({
        field: "defaultSiteSpace",
        rule: `${id} is not a site space of ${scope === null ? "the site's root" : "the site's default section"}`
      })
    )
  }
  return Effect.succeed(setDefault(tree, scope, id))
}

export const setDefaultSection = (tree: SiteTree, id: SiteSectionId): Effect.Effect<SiteTree, StructureError> =>
  !hasSections(tree)
    ? Effect.fail(new InvalidInput({ field: "defaultSiteSection", rule: "the site has no sections" }))
    : Effect.map(named(findSection(tree, id), "defaultSiteSection", "a section"), (s) => withSite(tree, { defaultSectionId: s.id }))

const sectionPathTaken = (tree: SiteTree, path: string, except: SiteSectionId | undefined) =>
  tree.sections.some((s) => s.id !== except && same(s.path, path))
    ? Effect.fail(new Conflict({ reason: `Another section of this site has the path ${path}` }))
    : Effect.void

/**
 * Adds a section with one site space, its default. The site's first section moves the root's site
 * spaces, if any, into a default section made for them (titled and pathed after the site) first.
 */
export const addSection = (
  tree: SiteTree,
  input: {
    readonly id: SiteSectionId
    readonly siteSpaceId: SiteSpaceId
    readonly spaceId: SpaceId
    readonly spaceTitle: string
    readonly title?: string | undefined
    readonly icon?: string | undefined
    readonly groupId?: SiteSectionGroupId | undefined
    /** The id of the default section, should one be made. */
    readonly defaultSectionId: SiteSectionId
    readonly at: Date
  }
): Effect.Effect<{ readonly tree: SiteTree; readonly section: SiteSection }, StructureError> =>
  Effect.gen(function*() {
    const group = input.groupId === undefined
      ? undefined
      : yield* named(findGroup(tree, input.groupId), "sectionGroupId", "a section group")
    let current = tree
    const roots = siteSpacesIn(tree, null)
    if (!hasSections(tree) && roots.length > 0) {
      const made: SiteSection = {
        id: input.defaultSectionId,
        siteId: tree.site.id,
        title: tree.site.title,
        localizedTitle: {},
        description: null,
        localizedDescription: {},
        icon: null,
        path: slugify(tree.site.title, "section"),
        condition: null,
        groupId: null,
        position: endOf(rootItems(tree)),
        defaultSiteSpaceId: tree.site.defaultSiteSpaceId,
        createdAt: input.at
      }
      current = {
        ...withSite(tree, { defaultSiteSpaceId: null, defaultSectionId: made.id }),
        sections: [made],
        siteSpaces: tree.siteSpaces.map((s) => (s.sectionId === null ? { ...s, sectionId: made.id } : s))
      }
    }
    const title = input.title ?? (input.spaceTitle.trim().length >= 2 ? input.spaceTitle.trim() : "Untitled section")
    const path = slugify(title, "section")
    yield* sectionPathTaken(current, path, undefined)
    const section: SiteSection = {
      id: input.id,
      siteId: tree.site.id,
      title,
      localizedTitle: {},
      description: null,
      localizedDescription: {},
      icon: input.icon ?? null,
      path,
      condition: null,
      groupId: group?.id ?? null,
      position: group === undefined ? endOf(rootItems(current)) : endOf(sectionsIn(current, group.id)),
      defaultSiteSpaceId: input.siteSpaceId,
      createdAt: input.at
    }
    const siteSpace: SiteSpace = {
      id: input.siteSpaceId,
      siteId: tree.site.id,
      sectionId: section.id,
      spaceId: input.spaceId,
      path: slugify(input.spaceTitle, "space"),
      condition: null,
      hidden: false,
      localizedTitle: {},
      position: endOf([]),
      createdAt: input.at
    }
    current = { ...current, sections: [...current.sections, section], siteSpaces: [...current.siteSpaces, siteSpace] }
    if (current.site.defaultSectionId === null) current = withSite(current, { defaultSectionId: section.id })
    return { tree: current, section }
  })

export const updateSection = (
  tree: SiteTree,
  id: SiteSectionId,
  input: {
    readonly title?: string | undefined
    readonly localizedTitle?: Localized | undefined
    readonly path?: string | undefined
    readonly defaultSiteSpace?: SiteSpaceId | undefined
    readonly condition?: string | null | undefined
    readonly icon?: string | null | undefined
    readonly description?: string | null | undefined
    readonly localizedDescription?: Localized | undefined
    readonly sectionGroupId?: SiteSectionGroupId | null | undefined
  }
): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    const section = yield* findSection(tree, id)
    if (input.path !== undefined) yield* sectionPathTaken(tree, input.path, id)
    const defaultSiteSpace = input.defaultSiteSpace
    if (defaultSiteSpace !== undefined && !tree.siteSpaces.some((s) => s.id === defaultSiteSpace && s.sectionId === id)) {
      return yield* new InvalidInput({ field: "defaultSiteSpace", rule: `${defaultSiteSpace} is not a site space of this section` })
    }
    let position = section.position
    let groupId = section.groupId
    if (input.sectionGroupId !== undefined) {
      const target = input.sectionGroupId
      if (target === null) {
        position = endOf(rootItems(tree).filter((i) => i.id !== id))
      } else {
        const group = yield* named(findGroup(tree, target), "sectionGroupId", "a section group")
        position = endOf(sectionsIn(tree, group.id).filter((s) => s.id !== id))
      }
      groupId = target
    }
    const optional = <A>(given: A | null | undefined, held: A | null) => (given === undefined ? held : given)
    return replaceSection(tree, {
      ...section,
      title: input.title ?? section.title,
      localizedTitle: input.localizedTitle ?? section.localizedTitle,
      path: input.path ?? section.path,
      defaultSiteSpaceId: defaultSiteSpace ?? section.defaultSiteSpaceId,
      condition: optional(input.condition, section.condition),
      icon: optional(input.icon, section.icon),
      description: optional(input.description, section.description),
      localizedDescription: input.localizedDescription ?? section.localizedDescription,
      groupId,
      position
    })
  })

const rootRef = (ref: typeof SiteSectionRef.Type | undefined): NamedSibling | undefined =>
  ref === undefined ? undefined : "siteSection" in ref ? { id: ref.siteSection, field: "siteSection" } : { id: ref.id, field: "id" }

/** Moves a section among its siblings: the root's items, or its group's sections. */
export const moveSection = (
  tree: SiteTree,
  id: SiteSectionId,
  position: SiteSectionPosition | undefined
): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    const section = yield* findSection(tree, id)
    const siblings: ReadonlyArray<Placed> = section.groupId === null ? rootItems(tree) : sectionsIn(tree, section.groupId)
    const key = yield* placeAmongSiblings(siblings.filter((s) => s.id !== id), {
      before: rootRef(position?.before),
      after: rootRef(position?.after)
    })
    return replaceSection(tree, { ...section, position: key })
  })

/**
 * Removes a section and its site spaces; the default's place goes to the next section. The last
 * section returns the site to plain site spaces, with none (and no groups).
 */
export const removeSection = (tree: SiteTree, id: SiteSectionId): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    const section = yield* findSection(tree, id)
    const rest = tree.sections.filter((s) => s.id !== id)
    const siteSpaces = tree.siteSpaces.filter((s) => s.sectionId !== id)
    if (rest.length === 0) {
      return { site: { ...tree.site, defaultSectionId: null, defaultSiteSpaceId: null }, sections: [], groups: [], siteSpaces }
    }
    const defaultSectionId = tree.site.defaultSectionId === section.id
      ? (successor(sectionsInOrder(tree), id) ?? rest[0]!).id
      : tree.site.defaultSectionId
    return { ...withSite(tree, { defaultSectionId }), sections: rest, siteSpaces }
  })

/** A new group at the end of the root, with `sections` moved into it in that order. */
export const addGroup = (
  tree: SiteTree,
  input: {
    readonly id: SiteSectionGroupId
    readonly title: string
    readonly icon?: string | undefined
    readonly sections?: ReadonlyArray<SiteSectionId> | undefined
    readonly at: Date
  }
): Effect.Effect<{ readonly tree: SiteTree; readonly group: SiteSectionGroup }, StructureError> =>
  Effect.gen(function*() {
    if (!hasSections(tree)) {
      return yield* new PreconditionFailed({ reason: "The site has no sections: add a section before a section group" })
    }
    const group: SiteSectionGroup = {
      id: input.id,
      siteId: tree.site.id,
      title: input.title,
      localizedTitle: {},
      icon: input.icon ?? null,
      position: endOf(rootItems(tree)),
      createdAt: input.at
    }
    let current: SiteTree = { ...tree, groups: [...tree.groups, group] }
    for (const [i, sectionId] of (input.sections ?? []).entries()) {
      yield* named(findSection(tree, sectionId), `sections.${i}`, "a section")
      current = yield* joinGroup(current, group.id, sectionId)
    }
    return { tree: current, group }
  })

export const updateGroup = (
  tree: SiteTree,
  id: SiteSectionGroupId,
  input: {
    readonly title?: string | undefined
    readonly localizedTitle?: Localized | undefined
    readonly icon?: string | null | undefined
  }
): Effect.Effect<SiteTree, StructureError> =>
  Effect.map(findGroup(tree, id), (group) => ({
    ...tree,
    groups: tree.groups.map((g) =>
      g.id === id
        ? {
          ...group,
          title: input.title ?? group.title,
          localizedTitle: input.localizedTitle ?? group.localizedTitle,
          icon: input.icon === undefined ? group.icon : input.icon
        }
        : g
    )
  }))

const joinGroup = (tree: SiteTree, groupId: SiteSectionGroupId, sectionId: SiteSectionId): Effect.Effect<SiteTree, StructureError> =>
  Effect.map(findSection(tree, sectionId), (section) =>
    section.groupId === groupId
      ? tree
      : replaceSection(tree, { ...section, groupId, position: endOf(sectionsIn(tree, groupId)) }))

/** Moves a section to the end of a group; a member already is no change. */
export const addSectionToGroup = (
  tree: SiteTree,
  groupId: SiteSectionGroupId,
  sectionId: SiteSectionId
): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    yield* findGroup(tree, groupId)
    yield* named(findSection(tree, sectionId), "sectionId", "a section")
    return yield* joinGroup(tree, groupId, sectionId)
  })

/** Moves a member of the group to the end of the root; a section that is not a member is not found. */
export const removeSectionFromGroup = (
  tree: SiteTree,
  groupId: SiteSectionGroupId,
  sectionId: SiteSectionId
): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    yield* findGroup(tree, groupId)
    const section = tree.sections.find((s) => s.id === sectionId && s.groupId === groupId)
    if (section === undefined) return yield* new NotFound({ entity: "site section", id: sectionId })
    return replaceSection(tree, { ...section, groupId: null, position: endOf(rootItems(tree)) })
  })

export const moveGroup = (
  tree: SiteTree,
  id: SiteSectionGroupId,
  position: SiteSectionPosition | undefined
): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    const group = yield* findGroup(tree, id)
    const key = yield* placeAmongSiblings(rootItems(tree).filter((i) => i.id !== id), {
      before: rootRef(position?.before),
      after: rootRef(position?.after)
    })
    return { ...tree, groups: tree.groups.map((g) => (g.id === id ? { ...group, position: key } : g)) }
  })

/** Removes a group; its members go back to the root where the group stood, in their order. */
export const removeGroup = (tree: SiteTree, id: SiteSectionGroupId): Effect.Effect<SiteTree, StructureError> =>
  Effect.gen(function*() {
    const group = yield* findGroup(tree, id)
    const roots = rootItems(tree)
    const next = roots[roots.findIndex((i) => i.id === id) + 1]?.position
    let lower = group.position
    const moved = new Map<string, SiteSection>()
    for (const section of sectionsIn(tree, id)) {
      // The first member takes the group's own key; the others follow it, below the next root item.
      const position = moved.size === 0 ? group.position : keyBetween(lower, next)
      lower = position
      moved.set(section.id, { ...section, groupId: null, position })
    }
    return {
      ...tree,
      groups: tree.groups.filter((g) => g.id !== id),
      sections: tree.sections.map((s) => moved.get(s.id) ?? s)
    }
  })

/** What breaks the structure's invariants, for tests: empty when it holds. */
export const structureProblems = (tree: SiteTree): Array<string> => {
  const problems: Array<string> = []
  const scopes: Array<Scope> = hasSections(tree) ? tree.sections.map((s) => s.id) : [null]
  if (hasSections(tree)) {
    if (tree.siteSpaces.some((s) => s.sectionId === null)) problems.push("root site spaces in a sectioned site")
    if (!tree.sections.some((s) => s.id === tree.site.defaultSectionId)) problems.push("no default section")
    if (tree.site.defaultSiteSpaceId !== null) problems.push("a root default in a sectioned site")
  } else {
    if (tree.site.defaultSectionId !== null) problems.push("a default section without sections")
    if (tree.groups.length > 0) problems.push("groups without sections")
  }
  for (const scope of scopes) {
    const members = siteSpacesIn(tree, scope)
    const dflt = defaultOf(tree, scope)
    if (members.length === 0 ? dflt !== null : !members.some((s) => s.id === dflt)) problems.push(`scope ${scope}: default ${dflt}`)
    const paths = members.map((s) => s.path.toLowerCase())
    if (new Set(paths).size !== paths.length) problems.push(`scope ${scope}: duplicate paths`)
    const spaces = members.map((s) => s.spaceId)
    if (new Set(spaces).size !== spaces.length) problems.push(`scope ${scope}: a space twice`)
    const keys = members.map((s) => s.position)
    if (new Set(keys).size !== keys.length) problems.push(`scope ${scope}: duplicate order keys`)
  }
  const sectionPaths = tree.sections.map((s) => s.path.toLowerCase())
  if (new Set(sectionPaths).size !== sectionPaths.length) problems.push("duplicate section paths")
  const containers: Array<ReadonlyArray<Placed>> = [rootItems(tree), ...tree.groups.map((g) => sectionsIn(tree, g.id))]
  for (const items of containers) {
    const keys = items.map((i) => i.position)
    if (new Set(keys).size !== keys.length) problems.push("duplicate order keys among sections and groups")
  }
  for (const s of tree.sections) {
    if (s.groupId !== null && !tree.groups.some((g) => g.id === s.groupId)) problems.push(`section ${s.id} in a missing group`)
  }
  return problems
}
