import { expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Clock, Effect, Either, Layer, ManagedRuntime, Option } from "effect"
import {
  Actor,
  atLeast,
  ChangeRequestContent,
  ChangeRequests,
  CommentReplies,
  Comments,
  type CommentView,
  type Keyset,
  type Page,
  type PageId,
  type PageRequest,
  type ReactionGroup,
  type ReplyView,
  type Role,
  type SpaceId,
  Spaces,
  type StoragePorts,
  type User
} from "../../src/index.js"
import { ContractServices, countsOf, makeMember, makeOrganization, makeUser } from "./fixtures.js"

/**
 * The reference model of one change request's threads: live comments with their replies and
 * reactions, and the ids of deleted ones (asking for them again must be NotFound). Times are the
 * model's clock, which the real system reads too, so every instant is known in advance.
 */
interface ReactionModel {
  readonly user: string
  readonly emoji: string
  readonly at: number
}

interface ReplyModel {
  readonly id: string
  readonly author: string
  readonly postedAt: number
  body: string
  editedAt: number | undefined
  reactions: Array<ReactionModel>
}

interface CommentModel {
  readonly id: string
  readonly author: string
  readonly postedAt: number
  readonly pageId: string | undefined
  body: string
  editedAt: number | undefined
  status: "open" | "resolved"
  resolvedBy: string | undefined
  resolvedAt: number | undefined
  replies: Array<ReplyModel>
  reactions: Array<ReactionModel>
}

interface Person {
  readonly user: User
  readonly role: Role
}

class Model {
  time = Date.UTC(2026, 2, 1)
  readonly comments: Array<CommentModel> = []
  readonly goneComments: Array<string> = []
  readonly goneReplies: Array<{ readonly commentId: string; readonly replyId: string }> = []
  constructor(readonly people: ReadonlyArray<Person>, readonly pages: ReadonlyArray<string>) {}

  /** A live comment, or (when `stale`, or when none is live) a deleted or never existing one. */
  comment(ref: Ref): { readonly id: string; readonly found: CommentModel | undefined } {
    const live = this.comments
    if (live.length > 0 && (!ref.stale || this.goneComments.length === 0)) {
      const found = live[ref.pick % live.length]!
      return { id: found.id, found }
    }
    if (this.goneComments.length > 0) return { id: this.goneComments[ref.pick % this.goneComments.length]!, found: undefined }
    return { id: "noSuchComment", found: undefined }
  }

  /** A live reply, or (when `stale`) a deleted one or a live one asked for through another comment. */
  reply(ref: Ref): { readonly commentId: string; readonly replyId: string; readonly found: ReplyModel | undefined } {
    const live = this.comments.flatMap((c) => c.replies.map((r) => ({ comment: c, reply: r })))
    if (ref.stale) {
      const misaddressed = live.flatMap(({ comment, reply }) =>
        this.comments.filter((c) => c !== comment).slice(0, 1).map((other) => ({ commentId: other.id, replyId: reply.id }))
      )
      const wrong = [...this.goneReplies, ...misaddressed]
      if (wrong.length > 0) return { ...wrong[ref.pick % wrong.length]!, found: undefined }
    }
    if (live.length > 0) {
      const { comment, reply } = live[ref.pick % live.length]!
      return { commentId: comment.id, replyId: reply.id, found: reply }
    }
    const comment = this.comments[ref.pick % Math.max(1, this.comments.length)]
    return { commentId: comment?.id ?? "noSuchComment", replyId: "noSuchReply", found: undefined }
  }

  /** Comments oldest first: the keyset is (postedAt ms, id). */
  ordered(): Array<CommentModel> {
    return [...this.comments].sort(byPosting)
  }

  openCount(): number {
    return this.comments.filter((c) => c.status === "open").length
  }
}

const byPosting = (a: { readonly postedAt: number; readonly id: string }, b: { readonly postedAt: number; readonly id: string }) =>
  a.postedAt - b.postedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

interface Ref {
  readonly pick: number
  readonly stale: boolean
}

interface World {
  readonly spaceId: SpaceId
  readonly changeRequest: string
  /** Runs a use case as `person`, on the model's clock. */
  readonly run: <A, E>(
    person: Person,
    effect: Effect.Effect<A, E, Comments | CommentReplies | Spaces | Actor>
  ) => Promise<Either.Either<A, E>>
}

type Command = fc.AsyncCommand<Model, World>

/** The users' roles in the organization, the first one the admin the checks read as. */
const roles: ReadonlyArray<Role> = ["admin", "review", "comment", "read"]

const tag = <A, E>(result: Either.Either<A, E>) => (Either.isLeft(result) ? (result.left as { _tag?: string })._tag : "ok")

/** Ways to write an emoji (character, hex code points, without its variation selector) and the emoji they name. */
const spellings: ReadonlyArray<readonly [text: string, emoji: string]> = [
  ["👍", "👍"],
  ["1f44d", "👍"],
  ["U+1F44D", "👍"],
  ["🎉", "🎉"],
  ["1f389", "🎉"],
  ["❤️", "❤️"],
  ["❤", "❤️"],
  ["2764-fe0f", "❤️"],
  ["🚀", "🚀"]
]
// Now and then a text that names no emoji, which fails the whole update.
const reactionList = fc.array(
  fc.oneof(
    { arbitrary: fc.constantFrom<readonly [string, string | undefined]>(...spellings), weight: 60 },
    { arbitrary: fc.constant<readonly [string, string | undefined]>(["not an emoji", undefined]), weight: 1 }
  ),
  { maxLength: 3 }
)
const bodies = fc.constantFrom("Looks good", "Please fix the title", "Why this change?")

const unique = (list: ReadonlyArray<string>) => [...new Set(list)]

/** Adds the reactions a user does not have yet, then removes: an emoji in both ends up removed. */
const react = (
  reactions: Array<ReactionModel>,
  user: string,
  added: ReadonlyArray<string>,
  removed: ReadonlyArray<string>,
  at: number
) => {
  for (const emoji of added) {
    if (!reactions.some((r) => r.user === user && r.emoji === emoji)) reactions.push({ user, emoji, at })
  }
  return reactions.filter((r) => r.user !== user || !removed.includes(r.emoji))
}

/** The reaction changes an update asks for, or the InvalidInput it must fail with. */
const reactionChanges = (
  added: ReadonlyArray<readonly [string, string | undefined]>,
  removed: ReadonlyArray<readonly [string, string | undefined]>
) =>
  [...added, ...removed].some(([, emoji]) => emoji === undefined)
    ? undefined
    : { added: unique(added.map(([, e]) => e!)), removed: unique(removed.map(([, e]) => e!)) }

const commands = (
  pickers: { readonly person: fc.Arbitrary<number>; readonly ref: fc.Arbitrary<Ref>; readonly tick: fc.Arbitrary<number> }
) => {
  const post = fc.record({
    person: pickers.person,
    tick: pickers.tick,
    page: fc.option(fc.nat(3), { freq: 2 }),
    body: bodies
  }).map(({ body, page, person, tick }): Command => ({
    check: () => true,
    toString: () => `post as ${roles[person]} on page ${page} "${body}" (+${tick}ms)`,
    run: async (model, world) => {
      model.time += tick
      const who = model.people[person]!
      // Page 3 is not a page of the change request.
      const pageId = page === null ? undefined : page < model.pages.length ? model.pages[page]! : "noSuchPage"
      const result = await world.run(
        who,
        Effect.flatMap(Comments, (c) => c.post(world.spaceId, world.changeRequest, { body: { markdown: body }, page: pageId }))
      )
      const expected = !atLeast(who.role, "comment") ? "Forbidden" : pageId === "noSuchPage" ? "InvalidInput" : "ok"
      expect(tag(result)).toBe(expected)
      if (Either.isLeft(result)) return
      const posted: CommentModel = {
        id: result.right.comment.id,
        author: who.user.id,
        postedAt: model.time,
        pageId,
        body,
        editedAt: undefined,
        status: "open",
        resolvedBy: undefined,
        resolvedAt: undefined,
        replies: [],
        reactions: []
      }
      expect(summarize(result.right)).toEqual(expectedSummary(posted))
      model.comments.push(posted)
    }
  }))
  const reply = fc.record({ person: pickers.person, tick: pickers.tick, ref: pickers.ref, body: bodies }).map((
    { body, person, ref, tick }
  ): Command => ({
    check: () => true,
    toString: () => `reply as ${roles[person]} to ${JSON.stringify(ref)} "${body}" (+${tick}ms)`,
    run: async (model, world) => {
      model.time += tick
      const who = model.people[person]!
      const target = model.comment(ref)
      const result = await world.run(
        who,
        Effect.flatMap(
          CommentReplies,
          (replies) => replies.reply(world.spaceId, world.changeRequest, target.id, { body: { markdown: body } })
        )
      )
      // The level is checked before the comment is looked up.
      const expected = !atLeast(who.role, "comment") ? "Forbidden" : target.found === undefined ? "NotFound" : "ok"
      expect(tag(result)).toBe(expected)
      if (Either.isLeft(result)) return
      const posted: ReplyModel = {
        id: result.right.reply.id,
        author: who.user.id,
        postedAt: model.time,
        body,
        editedAt: undefined,
        reactions: []
      }
      expect(summarizeReply(result.right)).toEqual(expectedReply(posted))
      target.found!.replies.push(posted)
    }
  }))
  const updateComment = fc.record(
    {
      person: pickers.person,
      tick: pickers.tick,
      ref: pickers.ref,
      resolved: fc.boolean(),
      body: bodies,
      added: reactionList,
      removed: reactionList
    },
    { requiredKeys: ["person", "tick", "ref", "added", "removed"] }
  ).map(({ added, body, person, ref, removed, resolved, tick }): Command => ({
    check: () => true,
    toString: () =>
      `update comment ${JSON.stringify(ref)} as ${roles[person]}: resolved ${resolved}, body ${body}, +[${added.map(([t]) => t)}] -[${
        removed.map(([t]) => t)
      }] (+${tick}ms)`,
    run: async (model, world) => {
      model.time += tick
      const who = model.people[person]!
      const target = model.comment(ref)
      const result = await world.run(
        who,
        Effect.flatMap(Comments, (c) =>
          c.update(world.spaceId, world.changeRequest, target.id, {
            resolved,
            body: body === undefined ? undefined : { markdown: body },
            addedReactions: added.map(([text]) => text),
            removedReactions: removed.map(([text]) => text)
          }))
      )
      const changes = reactionChanges(added, removed)
      const comment = target.found
      const own = comment !== undefined && comment.author === who.user.id
      const reacting = changes !== undefined && changes.added.length + changes.removed.length > 0
      // Any field the caller may not set refuses the whole update.
      const expected = changes === undefined
        ? "InvalidInput"
        : comment === undefined
        ? "NotFound"
        : (resolved !== undefined && !(own || atLeast(who.role, "review"))) ||
            (body !== undefined && !(own || atLeast(who.role, "admin"))) ||
            (reacting && !atLeast(who.role, "comment"))
        ? "Forbidden"
        : "ok"
      expect(tag(result)).toBe(expected)
      if (Either.isLeft(result)) return
      const updated = comment!
      if (body !== undefined && body !== updated.body) {
        updated.body = body
        updated.editedAt = model.time
      }
      if (resolved === true && updated.status === "open") {
        updated.status = "resolved"
        updated.resolvedBy = who.user.id
        updated.resolvedAt = model.time
      } else if (resolved === false && updated.status === "resolved") {
        updated.status = "open"
        updated.resolvedBy = undefined
        updated.resolvedAt = undefined
      }
      updated.reactions = react(updated.reactions, who.user.id, changes!.added, changes!.removed, model.time)
      expect(summarize(result.right)).toEqual(expectedSummary(updated))
    }
  }))
  const updateReply = fc.record(
    { person: pickers.person, tick: pickers.tick, ref: pickers.ref, body: bodies, added: reactionList, removed: reactionList },
    { requiredKeys: ["person", "tick", "ref", "added", "removed"] }
  ).map(({ added, body, person, ref, removed, tick }): Command => ({
    check: () => true,
    toString: () =>
      `update reply ${JSON.stringify(ref)} as ${roles[person]}: body ${body}, +[${added.map(([t]) => t)}] -[${
        removed.map(([t]) => t)
      }] (+${tick}ms)`,
    run: async (model, world) => {
      model.time += tick
      const who = model.people[person]!
      const target = model.reply(ref)
      const result = await world.run(
        who,
        Effect.flatMap(
          CommentReplies,
          (replies) =>
            replies.updateReply(world.spaceId, world.changeRequest, target.commentId, target.replyId, {
              body: body === undefined ? undefined : { markdown: body },
              addedReactions: added.map(([text]) => text),
              removedReactions: removed.map(([text]) => text)
            })
        )
      )
      const changes = reactionChanges(added, removed)
      const reply = target.found
      const own = reply !== undefined && reply.author === who.user.id
      const reacting = changes !== undefined && changes.added.length + changes.removed.length > 0
      const expected = changes === undefined
        ? "InvalidInput"
        : reply === undefined
        ? "NotFound"
        : (body !== undefined && !(own || atLeast(who.role, "admin"))) || (reacting && !atLeast(who.role, "comment"))
        ? "Forbidden"
        : "ok"
      expect(tag(result)).toBe(expected)
      if (Either.isLeft(result)) return
      const updated = reply!
      if (body !== undefined && body !== updated.body) {
        updated.body = body
        updated.editedAt = model.time
      }
      updated.reactions = react(updated.reactions, who.user.id, changes!.added, changes!.removed, model.time)
      expect(summarizeReply(result.right)).toEqual(expectedReply(updated))
    }
  }))
  const deleteComment = fc.record({ person: pickers.person, tick: pickers.tick, ref: pickers.ref }).map((
    { person, ref, tick }
  ): Command => ({
    check: () => true,
    toString: () => `delete comment ${JSON.stringify(ref)} as ${roles[person]} (+${tick}ms)`,
    run: async (model, world) => {
      model.time += tick
      const who = model.people[person]!
      const target = model.comment(ref)
      const result = await world.run(who, Effect.flatMap(Comments, (c) => c.remove(world.spaceId, world.changeRequest, target.id)))
      const comment = target.found
      const expected = comment === undefined
        ? "NotFound"
        : comment.author === who.user.id || atLeast(who.role, "admin")
        ? "ok"
        : "Forbidden"
      expect(tag(result)).toBe(expected)
      if (Either.isLeft(result)) return
      model.comments.splice(model.comments.indexOf(comment!), 1)
      model.goneComments.push(comment!.id)
      // Its replies went with it: asking for them through it is NotFound now.
      for (const reply of comment!.replies) model.goneReplies.push({ commentId: comment!.id, replyId: reply.id })
    }
  }))
  const deleteReply = fc.record({ person: pickers.person, tick: pickers.tick, ref: pickers.ref }).map(({ person, ref, tick }): Command => ({
    check: () => true,
    toString: () => `delete reply ${JSON.stringify(ref)} as ${roles[person]} (+${tick}ms)`,
    run: async (model, world) => {
      model.time += tick
      const who = model.people[person]!
      const target = model.reply(ref)
      const result = await world.run(
        who,
        Effect.flatMap(
          CommentReplies,
          (replies) => replies.removeReply(world.spaceId, world.changeRequest, target.commentId, target.replyId)
        )
      )
      const reply = target.found
      const expected = reply === undefined
        ? "NotFound"
        : reply.author === who.user.id || atLeast(who.role, "admin")
        ? "ok"
        : "Forbidden"
      expect(tag(result)).toBe(expected)
      if (Either.isLeft(result)) return
      const comment = model.comments.find((c) => c.id === target.commentId)!
      comment.replies = comment.replies.filter((r) => r.id !== reply!.id)
      model.goneReplies.push({ commentId: target.commentId, replyId: reply!.id })
    }
  }))
  // Posting and replying more often than deleting, so threads grow.
  return [post, post, post, reply, reply, updateComment, updateComment, updateComment, updateReply, updateReply, deleteComment, deleteReply]
}

/** Reactions as emoji → users with when they reacted, in the order they did (then by user id). */
const reactionsOf = (groups: ReadonlyArray<ReactionGroup>) =>
  Object.fromEntries(groups.map((g) => [g.emoji, g.users.map((u) => [u.user.id as string, u.reactedAt.getTime()])]))

const expectedReactions = (reactions: ReadonlyArray<ReactionModel>) => {
  const sorted = [...reactions].sort((a, b) => a.at - b.at || (a.user < b.user ? -1 : a.user > b.user ? 1 : 0))
  const groups: Record<string, Array<[string, number]>> = {}
  for (const r of sorted) (groups[r.emoji] ??= []).push([r.user, r.at])
  return groups
}

const byFirst = (
  a: readonly [string, ...Array<unknown>],
  b: readonly [string, ...Array<unknown>]
) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)

/** Who replied, how often, and when last: per author of the live replies. */
const expectedRepliers = (replies: ReadonlyArray<ReplyModel>) => {
  const by = new Map<string, { count: number; last: number }>()
  for (const r of replies) {
    const held = by.get(r.author) ?? { count: 0, last: r.postedAt }
    by.set(r.author, { count: held.count + 1, last: Math.max(held.last, r.postedAt) })
  }
  return [...by].map(([user, { count, last }]) => [user, count, last] as const).sort(byFirst)
}

const summarize = (view: CommentView) => ({
  id: view.comment.id as string,
  postedBy: view.comment.postedBy as string,
  postedAt: view.comment.postedAt.getTime(),
  pageId: view.comment.pageId as string | undefined,
  body: view.comment.body,
  editedAt: view.comment.editedAt?.getTime(),
  status: view.comment.status,
  resolvedBy: view.comment.resolvedBy as string | undefined,
  resolvedAt: view.comment.resolvedAt?.getTime(),
  replies: view.comment.replies,
  repliers: view.repliers.map((r) => [r.user.id as string, r.count, r.updatedAt.getTime()] as const).sort(byFirst),
  reactions: reactionsOf(view.reactions)
})

const expectedSummary = (c: CommentModel): ReturnType<typeof summarize> => ({
  id: c.id,
  postedBy: c.author,
  postedAt: c.postedAt,
  pageId: c.pageId,
  body: c.body,
  editedAt: c.editedAt,
  status: c.status,
  resolvedBy: c.resolvedBy,
  resolvedAt: c.resolvedAt,
  replies: c.replies.length,
  repliers: expectedRepliers(c.replies),
  reactions: expectedReactions(c.reactions)
})

const summarizeReply = (view: ReplyView) => ({
  id: view.reply.id as string,
  postedBy: view.reply.postedBy as string,
  postedAt: view.reply.postedAt.getTime(),
  body: view.reply.body,
  editedAt: view.reply.editedAt?.getTime(),
  reactions: reactionsOf(view.reactions)
})

const expectedReply = (r: ReplyModel): ReturnType<typeof summarizeReply> => ({
  id: r.id,
  postedBy: r.author,
  postedAt: r.postedAt,
  body: r.body,
  editedAt: r.editedAt,
  reactions: expectedReactions(r.reactions)
})

/** Every page of a list with a small limit, checking each page's size and count; the items in order. */
const walk = <A, E, R>(fetch: (request: PageRequest) => Effect.Effect<Page<A>, E, R>, expectedCount: number) =>
  Effect.gen(function*() {
    const items: Array<A> = []
    let after: Option.Option<Keyset> = Option.none()
    for (let guard = 0; guard < 100; guard++) {
      const page = yield* fetch({ limit: 3, after })
      expect(page.items.length).toBeLessThanOrEqual(3)
      expect(page.count).toBe(expectedCount)
      items.push(...page.items)
      if (Option.isNone(page.next)) return items
      after = page.next
    }
    throw new Error("paging did not end")
  })

/**
 * Compares, as the admin, every listing with the model: both orders, each status and each page,
 * every comment's fields, reactions and replies, and the space's count of open comments.
 */
const agrees = async (model: Model, world: World) => {
  const admin = model.people[0]!
  const ordered = model.ordered()
  const result = await world.run(
    admin,
    Effect.gen(function*() {
      const comments = yield* Comments
      const commentReplies = yield* CommentReplies
      const spaces = yield* Spaces
      const list = (query: Parameters<typeof comments.list>[2], expected: ReadonlyArray<CommentModel>) =>
        walk((page) => comments.list(world.spaceId, world.changeRequest, query, page), expected.length)
      for (const status of ["all", "open", "resolved"] as const) {
        const held = ordered.filter((c) => status === "all" || c.status === status)
        for (const order of ["asc", "desc"] as const) {
          const expected = order === "asc" ? held : [...held].reverse()
          const listed = yield* list({ status, order }, expected)
          expect([status, order, listed.map((v) => v.comment.id)]).toEqual([status, order, expected.map((c) => c.id)])
        }
      }
      for (const pageId of model.pages) {
        const expected = ordered.filter((c) => c.pageId === pageId).reverse()
        const listed = yield* list({ targetPage: pageId }, expected)
        expect([pageId, listed.map((v) => v.comment.id)]).toEqual([pageId, expected.map((c) => c.id)])
      }
      const all = yield* list({}, [...ordered].reverse())
      expect(all.map(summarize)).toEqual([...ordered].reverse().map(expectedSummary))
      for (const comment of ordered) {
        const expected = [...comment.replies].sort(byPosting)
        const replies = yield* walk(
          (page) => commentReplies.listReplies(world.spaceId, world.changeRequest, comment.id, page),
          expected.length
        )
        expect([comment.id, replies.map(summarizeReply)]).toEqual([comment.id, expected.map(expectedReply)])
      }
      const space = yield* spaces.get(world.spaceId)
      expect(countsOf(space).comments).toBe(model.openCount())
    })
  )
  if (Either.isLeft(result)) throw new Error(`reading failed: ${JSON.stringify(result.left)}`)
}

/** A clock that reads the model's time, so postedAt, editedAt and reactedAt are known (and can tie). */
const modelClock = (model: Model, real: Clock.Clock): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => model.time,
  currentTimeMillis: Effect.sync(() => model.time),
  unsafeCurrentTimeNanos: () => BigInt(model.time) * BigInt(1_000_000),
  currentTimeNanos: Effect.sync(() => BigInt(model.time) * BigInt(1_000_000)),
  sleep: (duration) => real.sleep(duration)
})

/**
 * A model-based property of change request comments: random posts, replies, updates (resolve,
 * reopen, body, reactions) and deletes by users of each level succeed or fail as the permission
 * table says, and leave every listing, counter and reaction as the reference model has them.
 */
export const commentsModelProperty = (name: string, makeLayer: () => Layer.Layer<StoragePorts>, numRuns: number) =>
  it(`${name}: change request comments follow the reference model`, async () => {
    const runtime = ManagedRuntime.make(ContractServices.pipe(Layer.provideMerge(makeLayer())))
    try {
      const pickers = {
        person: fc.nat(roles.length - 1),
        // Mostly a live comment or reply; sometimes one that was deleted.
        ref: fc.record({ pick: fc.nat(50), stale: fc.nat(7).map((n) => n === 0) }),
        // No time passing makes ties, which the ids order.
        tick: fc.constantFrom(0, 1, 1000)
      }
      await fc.assert(
        fc.asyncProperty(fc.commands(commands(pickers), { maxCommands: 30, size: "max" }), async (cmds) => {
          const real = await runtime.runPromise(Effect.clockWith(Effect.succeed))
          const setup = await runtime.runPromise(Effect.gen(function*() {
            const organization = yield* makeOrganization()
            const people: Array<Person> = []
            for (const role of roles) {
              const user = yield* makeUser()
              yield* makeMember(organization, user, role)
              people.push({ user, role })
            }
            const admin = people[0]!.user
            return yield* Effect.gen(function*() {
              const spaces = yield* Spaces
              const changeRequests = yield* ChangeRequests
              const changeRequestContent = yield* ChangeRequestContent
              const { space } = yield* spaces.create(organization.id, { title: "Docs" })
              const { changeRequest } = yield* changeRequests.create(space.id, { subject: "Review me" })
              yield* changeRequestContent.edit(space.id, changeRequest.id, {
                changes: [
                  { operation: "insert_page", title: "Start", document: { markdown: "Welcome." } },
                  { operation: "insert_page", title: "Guide", document: { markdown: "Steps." } },
                  { operation: "insert_page", title: "Reference", document: { markdown: "Fields." } }
                ]
              })
              yield* changeRequests.update(space.id, changeRequest.id, { status: "open" })
              const content = yield* changeRequestContent.content(space.id, changeRequest.id)
              const pages = [...content.content.pages.keys()].sort() as Array<PageId>
              return { people, spaceId: space.id, changeRequest: changeRequest.id as string, pages: pages as Array<string> }
            }).pipe(Effect.provideService(Actor, admin))
          }))
          expect(setup.pages.length).toBe(3)
          const model = new Model(setup.people, setup.pages)
          const clock = modelClock(model, real)
          const world: World = {
            spaceId: setup.spaceId,
            changeRequest: setup.changeRequest,
            run: (person, effect) =>
              runtime.runPromise(Effect.either(effect).pipe(Effect.provideService(Actor, person.user), Effect.withClock(clock)))
          }
          await fc.asyncModelRun(
            () => ({ model, real: world }),
            [...cmds].map((cmd) => ({
              check: cmd.check.bind(cmd),
              toString: cmd.toString.bind(cmd),
              run: async (m: Model, w: World) => {
                await cmd.run(m, w)
                await agrees(m, w)
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
