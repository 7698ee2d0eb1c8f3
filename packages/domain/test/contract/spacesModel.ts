import { expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Effect, Either, Layer, ManagedRuntime, Option } from "effect"
import {
  Actor,
  type CollectionId,
  CollectionPlacement,
  type OrganizationId,
  SiblingRepository,
  type SpaceId,
  SpaceRepository,
  Collections,
  SpaceLifecycle,
  SpacePlacement,
  Spaces,
  type StoragePorts,
  type User
} from "../../src/index.js"
import { ContractServices, makeMember, makeOrganization, makeUser } from "./fixtures.js"

/**
 * The reference model of the tree: for each parent (an organization's top, or a collection), its
 * children in order, soft-deleted spaces included (they keep their place until purged).
 */
interface Item {
  readonly id: string
  readonly kind: "collection" | "space"
  org: string
  parent: string | null
  deleted: boolean
}

class Model {
  readonly items = new Map<string, Item>()
  readonly children = new Map<string, Array<string>>()
  constructor(readonly orgs: ReadonlyArray<string>) {}
  listOf(org: string, parent: string | null): Array<string> {
    const key = `${org}/${parent ?? ""}`
    let list = this.children.get(key)
    if (list === undefined) this.children.set(key, list = [])
    return list
  }
  of(kind: Item["kind"], pick: number, alive = true): Item | undefined {
    const candidates = [...this.items.values()].filter((i) => i.kind === kind && (!alive || !i.deleted))
    return candidates.length === 0 ? undefined : candidates[pick % candidates.length]
  }
  detach(item: Item) {
    const list = this.listOf(item.org, item.parent)
    list.splice(list.indexOf(item.id), 1)
  }
  /** The collections from `id` up; a move under any of them would be a cycle. */
  ancestry(id: string | null): Array<string> {
    const chain: Array<string> = []
    for (let current = id; current !== null; current = this.items.get(current)?.parent ?? null) chain.push(current)
    return chain
  }
  subtree(id: string): Array<Item> {
    return [...this.items.values()].filter((i) => i.id !== id && this.ancestry(i.parent).includes(id))
  }
}

interface Real {
  readonly run: <A, E>(
    effect: Effect.Effect<A, E, Spaces | SpaceLifecycle | SpacePlacement | Collections | CollectionPlacement | Actor | StoragePorts>
  ) => Promise<Either.Either<A, E>>
}

type Command = fc.AsyncCommand<Model, Real>

const tag = <A, E>(result: Either.Either<A, E>) => (Either.isLeft(result) ? (result.left as { _tag?: string })._tag : "ok")

const parentOf = (model: Model, org: string, pick: number | null): string | null => {
  if (pick === null) return null
  const collections = [...model.items.values()].filter((i) => i.kind === "collection" && i.org === org)
  return collections.length === 0 ? null : collections[pick % collections.length]!.id
}

const commands = (pickers: { readonly pick: fc.Arbitrary<number>; readonly parent: fc.Arbitrary<number | null> }) => [
  fc.record({ parent: pickers.parent, kind: fc.constantFrom("collection" as const, "space" as const) }).map((
    { kind, parent }
  ): Command => ({
    check: () => true,
    toString: () => `create ${kind} under ${parent}`,
    run: async (model, real) => {
      const org = model.orgs[0]!
      const parentId = parentOf(model, org, parent)
      const input = parentId === null ? {} : { parent: parentId as CollectionId }
      const result = await real.run(Effect.flatMap(Effect.all([Spaces, Collections]), ([s, c]) =>
        kind === "collection"
          ? Effect.map(c.create(org as OrganizationId, input), (v) => v.collection.id as string)
          : Effect.map(s.create(org as OrganizationId, input), (v) => v.space.id as string)))
      expect(tag(result)).toBe("ok")
      const id = Either.getOrThrow(result)
      model.items.set(id, { id, kind, org, parent: parentId, deleted: false })
      model.listOf(org, parentId).push(id)
    }
  })),
  fc.record({
    pick: pickers.pick,
    parent: pickers.parent,
    kind: fc.constantFrom("collection" as const, "space" as const),
    before: fc.option(pickers.pick)
  })
    .map(({ before, kind, parent, pick }): Command => ({
      check: (model) => model.of(kind, pick) !== undefined,
      toString: () => `move ${kind} ${pick} under ${parent} before ${before}`,
      run: async (model, real) => {
        const item = model.of(kind, pick)!
        const parentId = parentOf(model, item.org, parent)
        const siblings = model.listOf(item.org, parentId).filter((id) => id !== item.id)
        const beforeId = before === null || siblings.length === 0 ? undefined : siblings[before % siblings.length]
        const position = beforeId === undefined ? undefined : { before: { type: "space" as const, space: beforeId } }
        const cycle = kind === "collection" && model.ancestry(parentId).includes(item.id)
        const result = await real.run(Effect.flatMap(Effect.all([SpacePlacement, CollectionPlacement]), ([s, c]) =>
          kind === "collection"
            ? Effect.asVoid(c.move(item.id as CollectionId, { parent: parentId as CollectionId | null, position }))
            : Effect.asVoid(s.move(item.id as SpaceId, { parent: parentId as CollectionId | null, position }))))
        expect(tag(result)).toBe(cycle ? "Conflict" : "ok")
        if (cycle) return
        model.detach(item)
        item.parent = parentId
        const list = model.listOf(item.org, parentId)
        list.splice(beforeId === undefined ? list.length : list.indexOf(beforeId), 0, item.id)
      }
    })),
  pickers.pick.map((pick): Command => ({
    check: (model) => model.of("space", pick) !== undefined,
    toString: () => `delete space ${pick}`,
    run: async (model, real) => {
      const item = model.of("space", pick)!
      expect(tag(await real.run(Effect.flatMap(SpaceLifecycle, (s) => s.delete(item.id as SpaceId))))).toBe("ok")
      item.deleted = true
    }
  })),
  pickers.pick.map((pick): Command => ({
    check: (model) => [...model.items.values()].some((i) => i.deleted),
    toString: () => `restore space ${pick}`,
    run: async (model, real) => {
      const deleted = [...model.items.values()].filter((i) => i.deleted)
      const item = deleted[pick % deleted.length]!
      expect(tag(await real.run(Effect.flatMap(SpaceLifecycle, (s) => s.restore(item.id as SpaceId))))).toBe("ok")
      item.deleted = false
    }
  })),
  pickers.pick.map((pick): Command => ({
    check: (model) => model.of("collection", pick) !== undefined,
    toString: () => `delete collection ${pick}`,
    run: async (model, real) => {
      const item = model.of("collection", pick)!
      expect(tag(await real.run(Effect.flatMap(Collections, (c) => c.delete(item.id as CollectionId))))).toBe("ok")
      const held = [...model.listOf(item.org, item.id)]
      model.detach(item)
      model.items.delete(item.id)
      model.children.delete(`${item.org}/${item.id}`)
      for (const id of held) model.items.get(id)!.parent = item.parent
      model.listOf(item.org, item.parent).push(...held)
    }
  })),
  fc.record({ pick: pickers.pick, kind: fc.constantFrom("collection" as const, "space" as const) }).map(({ kind, pick }): Command => ({
    check: (model) => model.of(kind, pick) !== undefined,
    toString: () => `transfer ${kind} ${pick}`,
    run: async (model, real) => {
      const item = model.of(kind, pick)!
      const target = model.orgs.find((o) => o !== item.org)!
      const result = await real.run(Effect.flatMap(Effect.all([SpacePlacement, CollectionPlacement]), ([s, c]) =>
        kind === "collection"
          ? Effect.asVoid(c.transfer(item.id as CollectionId, target as OrganizationId))
          : Effect.asVoid(s.transfer(item.id as SpaceId, { organization: target as OrganizationId }))))
      expect(tag(result)).toBe("ok")
      const moving = kind === "collection" ? model.subtree(item.id) : []
      model.detach(item)
      for (const below of moving) {
        const list = model.children.get(`${below.org}/${below.parent}`)
        if (list !== undefined && below.parent !== null) {
          model.children.delete(`${below.org}/${below.parent}`)
          model.children.set(`${target}/${below.parent}`, list)
        }
      }
      for (const below of moving) below.org = target
      const heldByItem = model.children.get(`${item.org}/${item.id}`)
      if (heldByItem !== undefined) {
        model.children.delete(`${item.org}/${item.id}`)
        model.children.set(`${target}/${item.id}`, heldByItem)
      }
      item.org = target
      item.parent = null
      model.listOf(target, null).push(item.id)
    }
  })),
  pickers.pick.map((pick): Command => ({
    check: (model) => model.of("space", pick) !== undefined,
    toString: () => `duplicate space ${pick}`,
    run: async (model, real) => {
      const item = model.of("space", pick)!
      const result = await real.run(
        Effect.flatMap(SpaceLifecycle, (s) => Effect.map(s.duplicate(item.id as SpaceId), (v) => v.space.id as string))
      )
      expect(tag(result)).toBe("ok")
      const id = Either.getOrThrow(result)
      model.items.set(id, { id, kind: "space", org: item.org, parent: item.parent, deleted: false })
      const list = model.listOf(item.org, item.parent)
      list.splice(list.indexOf(item.id) + 1, 0, id)
    }
  }))
]

/** Compares every parent's children, and the listed (not deleted) spaces, with the model. */
const agrees = async (model: Model, real: Real) => {
  const result = await real.run(Effect.gen(function*() {
    const siblings = yield* SiblingRepository
    const spaces = yield* SpaceRepository
    for (const [key, expected] of model.children) {
      const [org, parent] = key.split("/") as [OrganizationId, string]
      const parentId = parent === "" ? null : (parent as CollectionId)
      const actual = [...(yield* siblings.childrenOf(org, parentId))]
        .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1))
        .map((s) => s.id)
      expect([key, actual]).toEqual([key, expected])
      const listed = yield* spaces.list(org, { _tag: "children", parentId }, { limit: 1000, after: Option.none() })
      const alive = expected.filter((id) => model.items.get(id)?.kind === "space" && !model.items.get(id)?.deleted)
      expect([key, listed.items.map((s) => s.id)]).toEqual([key, alive])
    }
  }))
  expect(Either.isRight(result)).toBe(true)
}

/**
 * A model-based property: random sequences of create, move, delete, restore, transfer and
 * duplicate keep every listing equal to the reference model (order, parents, counts, no cycles).
 */
export const spacesModelProperty = (name: string, makeLayer: () => Layer.Layer<StoragePorts>, numRuns: number) =>
  it(`${name}: collection and space listings follow the reference model`, async () => {
    const runtime = ManagedRuntime.make(ContractServices.pipe(Layer.provideMerge(makeLayer())))
    try {
      const pickers = { pick: fc.nat(50), parent: fc.option(fc.nat(50), { freq: 3 }) }
      await fc.assert(
        fc.asyncProperty(fc.commands(commands(pickers), { maxCommands: 25 }), async (cmds) => {
          const setup = await runtime.runPromise(Effect.gen(function*() {
            const admin = yield* makeUser()
            const a = yield* makeOrganization()
            const b = yield* makeOrganization()
            yield* makeMember(a, admin, "admin")
            yield* makeMember(b, admin, "admin")
            return { admin, orgs: [a.id as string, b.id as string] }
          }))
          const actor: User = setup.admin
          const real: Real = {
            run: (effect) => runtime.runPromise(Effect.either(effect).pipe(Effect.provideService(Actor, actor)))
          }
          const model = new Model(setup.orgs)
          for (const org of setup.orgs) model.listOf(org, null)
          await fc.asyncModelRun(
            () => ({ model, real }),
            [...cmds].map((cmd) => ({
              check: cmd.check.bind(cmd),
              toString: cmd.toString.bind(cmd),
              run: async (m: Model, r: Real) => {
                await cmd.run(m, r)
                await agrees(m, r)
              }
            }))
          )
        }),
        { numRuns }
      )
    } finally {
      await runtime.dispose()
    }
  }, 300_000)
