import { expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import {
  Actor,
  type PublishedStructure,
  type SectionView,
  SiteId,
  SiteRepository,
  SiteSectionGroupId,
  SiteSectionId,
  SiteSpaceId,
  SitePublishing,
  Sites,
  SiteSections,
  SiteSpaces,
  SiteStructureRepository,
  type SiteTree,
  type SpaceId,
  Spaces,
  type StoragePorts,
  structureProblems
} from "../../src/index.js"
import { ContractServices, makeMember, makeOrganization, makeUser } from "./fixtures.js"

/**
 * The reference model of one site's structure: plain ordered lists. The real system must list the
 * same items in the same order with the same defaults after every command, refuse what the model
 * refuses with the same error, and keep the stored structure's invariants (`structureProblems`).
 */
const SPACE_TITLES = ["Alpha", "Beta", "Gamma", "Delta"] as const
const titleOf = (space: number): string => SPACE_TITLES[space]!
const PATHS = ["guide", "Guide", "api", "alpha"] as const

interface SectionModel {
  readonly id: string
  readonly path: string
  siteSpaces: Array<string>
  dflt: string | null
}

class Model {
  /** Site spaces at the root (no sections) with their default. */
  root: Array<string> = []
  rootDefault: string | null = null
  sections = new Map<string, SectionModel>()
  /** The root's items in order: section and group ids. */
  rootItems: Array<string> = []
  groups = new Map<string, Array<string>>()
  defaultSection: string | null = null
  /** Each site space's space (an index of SPACE_TITLES) and path. */
  readonly spaceOf = new Map<string, number>()
  readonly pathOf = new Map<string, string>()

  hasSections(): boolean {
    return this.sections.size > 0
  }
  /** Sections in reading order: the root's items, each group standing for its members. */
  sectionOrder(): Array<string> {
    return this.rootItems.flatMap((id) => this.groups.get(id) ?? [id])
  }
  scopeOf(siteSpace: string): Array<string> {
    if (this.root.includes(siteSpace)) return this.root
    for (const section of this.sections.values()) if (section.siteSpaces.includes(siteSpace)) return section.siteSpaces
    throw new Error(`no scope holds ${siteSpace}`)
  }
  sectionOf(siteSpace: string): SectionModel | undefined {
    return [...this.sections.values()].find((s) => s.siteSpaces.includes(siteSpace))
  }
  allSiteSpaces(): Array<string> {
    return [...this.root, ...[...this.sections.values()].flatMap((s) => s.siteSpaces)].sort()
  }
  containerOf(item: string): Array<string> {
    for (const members of this.groups.values()) if (members.includes(item)) return members
    return this.rootItems
  }
  freePath(wanted: string, scope: ReadonlyArray<string>): string {
    const taken = new Set(scope.map((id) => this.pathOf.get(id)!.toLowerCase()))
    if (!taken.has(wanted)) return wanted
    for (let n = 2;; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`
  }
}

const pick = <A>(items: ReadonlyArray<A>, n: number): A | undefined => (items.length === 0 ? undefined : items[n % items.length])
const remove = (list: Array<string>, id: string) => list.splice(list.indexOf(id), 1)
/** The item that takes a removed default's place: the next, else the one before. */
const successor = (list: ReadonlyArray<string>, id: string) => {
  const i = list.indexOf(id)
  return list[i + 1] ?? list[i - 1] ?? null
}
const insertNear = (list: Array<string>, id: string, target: string | undefined, side: "before" | "after") => {
  if (target === undefined) return void list.push(id)
  const i = list.indexOf(target)
  list.splice(side === "before" ? i : i + 1, 0, id)
}

interface World {
  readonly siteId: SiteId
  readonly spaces: ReadonlyArray<SpaceId>
  readonly run: <A, E extends { readonly _tag: string }>(
    effect: Effect.Effect<A, E, Sites | SiteSpaces | SiteSections | Actor>
  ) => Promise<Either.Either<A, E>>
  readonly read: () => Promise<{ readonly structure: PublishedStructure; readonly tree: SiteTree }>
}

type Outcome = "success" | "InvalidInput" | "Conflict" | "PreconditionFailed" | "NotFound"

const tagOf = <A, E extends { readonly _tag: string }>(result: Either.Either<A, E>): string =>
  Either.isLeft(result) ? result.left._tag : "success"

/** A command: what the model expects, then the real call, which must agree. */
interface Step {
  readonly name: string
  /** Applies the command to the model when the real call succeeded; the expected outcome first. */
  readonly expect: (model: Model) => Outcome
  readonly call: (
    model: Model,
    world: World
  ) => Effect.Effect<unknown, { readonly _tag: string }, Sites | SiteSpaces | SiteSections | Actor>
  readonly apply: (model: Model, result: unknown, world: World) => void | Promise<void>
}

const command = (step: Step): fc.AsyncCommand<Model, World> => ({
  check: () => true,
  toString: () => step.name,
  run: async (model, world) => {
    const expected = step.expect(model)
    const result = await world.run(step.call(model, world))
    expect(`${step.name}: ${tagOf(result)}`).toBe(`${step.name}: ${expected}`)
    if (Either.isRight(result)) await step.apply(model, result.right, world)
    await agrees(model, world)
  }
})

const sectionIds = (model: Model) => [...model.sections.keys()].sort()
const groupIds = (model: Model) => [...model.groups.keys()].sort()

const allCommands = [
  fc.record({ space: fc.nat(SPACE_TITLES.length - 1), section: fc.option(fc.nat(5)) }).map(({ section, space }) =>
    command({
      name: `add site space ${space} to ${section}`,
      expect: (m) => {
        if (!m.hasSections())
          return section === null
            ? (m.root.some((s) => m.spaceOf.get(s) === space) ? "Conflict" : "success")
            : "InvalidInput"
        const target = section === null ? m.defaultSection! : pick(sectionIds(m), section)!
        return m.sections.get(target)!.siteSpaces.some((s) => m.spaceOf.get(s) === space) ? "Conflict" : "success"
      },
      call: (m, w) =>
        Effect.flatMap(SiteSpaces, (siteSpaces) =>
          siteSpaces.addSiteSpace(w.siteId, {
            spaceId: w.spaces[space]!,
            ...(section === null ? {} : { sectionId: SiteSectionId.make(pick(sectionIds(m), section) ?? "noSuchSection") })
          })),
      apply: (m, result) => {
        const id = (result as { siteSpace: { siteSpace: { id: string } } }).siteSpace.siteSpace.id
        const scope = !m.hasSections()
          ? m.root
          : m.sections.get(section === null ? m.defaultSection! : pick(sectionIds(m), section)!)!.siteSpaces
        m.pathOf.set(id, m.freePath(titleOf(space).toLowerCase(), scope))
        m.spaceOf.set(id, space)
        scope.push(id)
        if (scope === m.root) m.rootDefault ??= id
        else {
          const owner = [...m.sections.values()].find((s) => s.siteSpaces === scope)!
          owner.dflt ??= id
        }
      }
    })
  ),
  fc.nat(20).map((n) =>
    command({
      name: `remove site space ${n}`,
      expect: (m) => {
        const id = pick(m.allSiteSpaces(), n)
        if (id === undefined) return "NotFound"
        const section = m.sectionOf(id)
        return section !== undefined && section.siteSpaces.length === 1 ? "PreconditionFailed" : "success"
      },
      call: (m, w) =>
        Effect.flatMap(
          SiteSpaces,
          (siteSpaces) => siteSpaces.removeSiteSpace(w.siteId, SiteSpaceId.make(pick(m.allSiteSpaces(), n) ?? "noSuchSiteSpace"))
        ),
      apply: (m) => {
        const id = pick(m.allSiteSpaces(), n)!
        const section = m.sectionOf(id)
        const scope = m.scopeOf(id)
        if (section === undefined) {
          if (m.rootDefault === id) m.rootDefault = successor(scope, id)
        } else if (section.dflt === id) section.dflt = successor(scope, id)
        remove(scope, id)
      }
    })
  ),
  fc.record({ n: fc.nat(20), target: fc.option(fc.nat(20)), side: fc.constantFrom("before" as const, "after" as const) }).map(
    ({ n, side, target }) => {
      const targetOf = (m: Model) => {
        const id = pick(m.allSiteSpaces(), n)
        if (id === undefined || target === null) return undefined
        return pick(m.scopeOf(id).filter((s) => s !== id), target)
      }
      return command({
        name: `move site space ${n} ${side} ${target}`,
        expect: (m) => (pick(m.allSiteSpaces(), n) === undefined ? "NotFound" : "success"),
        call: (m, w) => {
          const other = targetOf(m)
          return Effect.flatMap(SiteSpaces, (siteSpaces) =>
            siteSpaces.moveSiteSpace(
              w.siteId,
              SiteSpaceId.make(pick(m.allSiteSpaces(), n) ?? "noSuchSiteSpace"),
              other === undefined ? undefined : { [side]: { type: "site-space", siteSpace: other } }
            ))
        },
        apply: (m) => {
          const id = pick(m.allSiteSpaces(), n)!
          const other = targetOf(m)
          const scope = m.scopeOf(id)
          remove(scope, id)
          insertNear(scope, id, other, side)
        }
      })
    }
  ),
  fc.nat(20).map((n) =>
    command({
      name: `make site space ${n} the site's default`,
      expect: (m) => {
        const id = pick(m.allSiteSpaces(), n)
        if (id === undefined) return "InvalidInput"
        return (m.hasSections() ? m.sections.get(m.defaultSection!)!.siteSpaces : m.root).includes(id) ? "success" : "InvalidInput"
      },
      call: (m, w) =>
        Effect.flatMap(Sites, (sites) =>
          sites.update(w.siteId, { defaultSiteSpace: SiteSpaceId.make(pick(m.allSiteSpaces(), n) ?? "noSuchSiteSpace") })),
      apply: (m) => {
        const id = pick(m.allSiteSpaces(), n)!
        if (m.hasSections())
          m.sections.get(m.defaultSection!)!.dflt = id
        else m.rootDefault = id
      }
    })
  ),
  fc.record({ n: fc.nat(20), path: fc.constantFrom(...PATHS) }).map(({ n, path }) =>
    command({
      name: `set site space ${n}'s path to ${path}`,
      expect: (m) => {
        const id = pick(m.allSiteSpaces(), n)
        if (id === undefined) return "NotFound"
        return m.scopeOf(id).some((s) => s !== id && m.pathOf.get(s)!.toLowerCase() === path.toLowerCase()) ? "Conflict" : "success"
      },
      call: (m, w) =>
        Effect.flatMap(SiteSpaces, (siteSpaces) =>
          siteSpaces.updateSiteSpace(w.siteId, SiteSpaceId.make(pick(m.allSiteSpaces(), n) ?? "noSuchSiteSpace"), { path })),
      apply: (m) =>
        void m.pathOf.set(pick(m.allSiteSpaces(), n)!, path)
    })
  ),
  fc.record({ space: fc.nat(SPACE_TITLES.length - 1), group: fc.option(fc.nat(5)) }).map(({ group, space }) =>
    command({
      name: `add section for space ${space} in group ${group}`,
      expect: (m) => ([...m.sections.values()].some((s) => s.path === titleOf(space).toLowerCase()) ? "Conflict" : "success"),
      call: (m, w) =>
        Effect.flatMap(SiteSections, (siteSections) =>
          siteSections.addSection(w.siteId, {
            spaceId: w.spaces[space]!,
            ...(group === null || m.groups.size === 0 ? {} : { sectionGroupId: SiteSectionGroupId.make(pick(groupIds(m), group)!) })
          })),
      apply: async (m, result, w) => {
        const section = (result as { section: SectionView }).section
        const made = section.siteSpaces[0]!.siteSpace.id
        if (!m.hasSections() && m.root.length > 0) {
          // The root's site spaces moved into a default section the site made for them.
          const { tree } = await w.read()
          const auto = tree.sections.find((s) => s.id !== section.section.id)!
          m.sections.set(auto.id, { id: auto.id, path: auto.path, siteSpaces: m.root, dflt: m.rootDefault })
          m.rootItems.push(auto.id)
          m.defaultSection = auto.id
          m.root = []
          m.rootDefault = null
        }
        const id = section.section.id
        m.sections.set(id, { id, path: titleOf(space).toLowerCase(), siteSpaces: [made], dflt: made })
        m.spaceOf.set(made, space)
        m.pathOf.set(made, titleOf(space).toLowerCase())
        const into = group === null || m.groups.size === 0 ? m.rootItems : m.groups.get(pick(groupIds(m), group)!)!
        into.push(id)
        m.defaultSection ??= id
      }
    })
  ),
  fc.nat(10).map((n) =>
    command({
      name: `remove section ${n}`,
      expect: (m) => (m.hasSections() ? "success" : "NotFound"),
      call: (m, w) =>
        Effect.flatMap(SiteSections, (siteSections) =>
          siteSections.removeSection(w.siteId, SiteSectionId.make(pick(sectionIds(m), n) ?? "noSuchSection"))),
      apply: (m) => {
        const id = pick(sectionIds(m), n)!
        if (m.sections.size === 1) {
          m.sections.clear()
          m.groups.clear()
          m.rootItems = []
          m.defaultSection = null
          return
        }
        if (m.defaultSection === id)
          m.defaultSection = successor(m.sectionOrder(), id)
        remove(m.containerOf(id), id)
        m.sections.delete(id)
      }
    })
  ),
  fc.record({ n: fc.nat(10), target: fc.option(fc.nat(10)), side: fc.constantFrom("before" as const, "after" as const) }).map(
    ({ n, side, target }) => {
      const items = (m: Model) => [...sectionIds(m), ...groupIds(m)]
      const targetOf = (m: Model) => {
        const id = pick(items(m), n)
        return id === undefined || target === null ? undefined : pick(m.containerOf(id).filter((i) => i !== id), target)
      }
      return command({
        name: `move section or group ${n} ${side} ${target}`,
        expect: (m) => (pick(items(m), n) === undefined ? "NotFound" : "success"),
        call: (m, w) =>
          Effect.flatMap(SiteSections, (siteSections): Effect.Effect<unknown, { readonly _tag: string }, Actor> => {
            const id = pick(items(m), n)
            const other = targetOf(m)
            const position = other === undefined
              ? undefined
              : { [side]: { type: m.groups.has(other) ? "site-section-group" as const : "site-section" as const, id: other } }
            return id !== undefined && m.groups.has(id)
              ? siteSections.moveGroup(w.siteId, SiteSectionGroupId.make(id), position)
              : siteSections.moveSection(w.siteId, SiteSectionId.make(id ?? "noSuchSection"), position)
          }),
        apply: (m) => {
          const id = pick(items(m), n)!
          const other = targetOf(m)
          const container = m.containerOf(id)
          remove(container, id)
          insertNear(container, id, other, side)
        }
      })
    }
  ),
  fc.array(fc.nat(10), { maxLength: 3 }).map((picks) => {
    const members = (m: Model) => [...new Set(picks.map((p) => pick(sectionIds(m), p)!))].filter((s) => s !== undefined)
    return command({
      name: `add group with sections ${picks.join(",")}`,
      expect: (m) => (m.hasSections() ? "success" : "PreconditionFailed"),
      call: (m, w) =>
        Effect.flatMap(
          SiteSections,
          (siteSections) =>
            siteSections.addGroup(w.siteId, {
              title: "Group",
              sections: m.hasSections() ? members(m).map((s) => SiteSectionId.make(s)) : []
            })
        ),
      apply: (m, result) => {
        const id = (result as { group: { group: { id: string } } }).group.group.id
        const chosen = members(m)
        m.rootItems.push(id)
        m.groups.set(id, [])
        for (const s of chosen) {
          remove(m.containerOf(s), s)
          m.groups.get(id)!.push(s)
        }
      }
    })
  }),
  fc.record({ g: fc.nat(5), s: fc.nat(10), join: fc.boolean() }).map(({ g, join, s }) =>
    command({
      name: `${join ? "add" : "remove"} section ${s} ${join ? "to" : "from"} group ${g}`,
      expect: (m) => {
        const group = pick(groupIds(m), g)
        const section = pick(sectionIds(m), s)
        if (group === undefined) return "NotFound"
        if (section === undefined) return join ? "InvalidInput" : "NotFound"
        return join || m.groups.get(group)!.includes(section) ? "success" : "NotFound"
      },
      call: (m, w) =>
        Effect.flatMap(SiteSections, (siteSections) => {
          const group = SiteSectionGroupId.make(pick(groupIds(m), g) ?? "noSuchGroup")
          const section = SiteSectionId.make(pick(sectionIds(m), s) ?? "noSuchSection")
          return join
            ? siteSections.addSectionToGroup(w.siteId, group, section)
            : siteSections.removeSectionFromGroup(w.siteId, group, section)
        }),
      apply: (m) => {
        const group = pick(groupIds(m), g)!
        const section = pick(sectionIds(m), s)!
        const members = m.groups.get(group)!
        if (join && members.includes(section)) return
        remove(m.containerOf(section), section)
        ;(join ? members : m.rootItems).push(section)
      }
    })
  ),
  fc.nat(5).map((g) =>
    command({
      name: `remove group ${g}`,
      expect: (m) => (m.groups.size === 0 ? "NotFound" : "success"),
      call: (m, w) =>
        Effect.flatMap(SiteSections, (siteSections) =>
          siteSections.removeGroup(w.siteId, SiteSectionGroupId.make(pick(groupIds(m), g) ?? "noSuchGroup"))),
      apply: (m) => {
        const group = pick(groupIds(m), g)!
        const at = m.rootItems.indexOf(group)
        m.rootItems.splice(at, 1, ...m.groups.get(group)!)
        m.groups.delete(group)
      }
    })
  ),
  fc.nat(10).map((n) =>
    command({
      name: `make section ${n} the default`,
      expect: (m) => (m.hasSections() ? "success" : "InvalidInput"),
      call: (m, w) =>
        Effect.flatMap(Sites, (sites) =>
          sites.update(w.siteId, { defaultSiteSection: SiteSectionId.make(pick(sectionIds(m), n) ?? "noSuchSection") })),
      apply: (m) =>
        void (m.defaultSection = pick(sectionIds(m), n)!)
    })
  )
]

// Defaults move more often than anything else, so that removals meet defaults in the middle of a scope.
const commands = [...allCommands, allCommands[3]!, allCommands[3]!, allCommands[11]!]

/** The real structure, as published and as stored, is the model's. */
const agrees = async (model: Model, world: World) => {
  const { structure, tree } = await world.read()
  expect(structureProblems(tree)).toEqual([])
  const siteSpaces = (
    views: ReadonlyArray<{ readonly siteSpace: { readonly id: string; readonly path: string }; readonly default: boolean }>
  ) => views.map((v) => [v.siteSpace.id, v.default, v.siteSpace.path])
  const expected = (ids: ReadonlyArray<string>, dflt: string | null) => ids.map((id) => [id, id === dflt, model.pathOf.get(id)])
  if (!model.hasSections()) {
    expect(structure.type).toBe("siteSpaces")
    if (structure.type === "siteSpaces") expect(siteSpaces(structure.items)).toEqual(expected(model.root, model.rootDefault))
    return
  }
  expect(structure.type).toBe("sections")
  if (structure.type !== "sections") return
  const section = (view: SectionView) => {
    return [view.section.id, view.default, siteSpaces(view.siteSpaces)]
  }
  const modelSection = (id: string) => {
    const held = model.sections.get(id)!
    return [id, id === model.defaultSection, expected(held.siteSpaces, held.dflt)]
  }
  expect(
    structure.items.map((item) => ("section" in item ? section(item.section) : [item.group.group.id, item.group.sections.map(section)]))
  )
    .toEqual(model.rootItems.map((id) => (model.groups.has(id) ? [id, model.groups.get(id)!.map(modelSection)] : modelSection(id))))
}

export const sitesModelProperty = (name: string, makeLayer: () => Layer.Layer<StoragePorts>, numRuns: number) =>
  it(`${name}: a site's structure follows the reference model`, async () => {
    const runtime = ManagedRuntime.make(ContractServices.pipe(Layer.provideMerge(makeLayer())))
    try {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: "max" }), async (cmds) => {
          const setup = await runtime.runPromise(Effect.gen(function*() {
            const organization = yield* makeOrganization()
            const admin = yield* makeUser()
            yield* makeMember(organization, admin, "admin")
            return yield* Effect.gen(function*() {
              const spaces = yield* Spaces
              const ids: Array<SpaceId> = []
              for (const title of SPACE_TITLES) ids.push((yield* spaces.create(organization.id, { title })).space.id)
              // The site starts with two root site spaces, the first its default.
              const site = yield* (yield* Sites).create(organization.id, { title: "Docs", spaces: ids.slice(0, 2) })
              return { admin, spaces: ids, siteId: site.site.id }
            }).pipe(Effect.provideService(Actor, admin))
          }))
          const world: World = {
            siteId: SiteId.make(setup.siteId),
            spaces: setup.spaces,
            run: (effect) => runtime.runPromise(Effect.either(effect).pipe(Effect.provideService(Actor, setup.admin))),
            read: () =>
              runtime.runPromise(
                Effect.gen(function*() {
                  const { structure } = yield* (yield* SitePublishing).published(setup.siteId)
                  const site = yield* (yield* SiteRepository).findById(setup.siteId)
                  const rest = yield* (yield* SiteStructureRepository).load(setup.siteId)
                  return { structure, tree: { site: site.pipe((o) => (o._tag === "Some" ? o.value : undefined))!, ...rest } }
                }).pipe(Effect.provideService(Actor, setup.admin))
              )
          }
          const model = new Model()
          const { structure } = await world.read()
          if (structure.type === "siteSpaces") {
            for (const [i, view] of structure.items.entries()) {
              model.root.push(view.siteSpace.id)
              model.spaceOf.set(view.siteSpace.id, i)
              model.pathOf.set(view.siteSpace.id, view.siteSpace.path)
            }
            model.rootDefault = model.root[0] ?? null
          }
          expect(model.root.length).toBe(2)
          await fc.asyncModelRun(() => ({ model, real: world }), cmds)
        }),
        { numRuns }
      )
    } finally {
      await runtime.dispose()
    }
  }, 300_000)
