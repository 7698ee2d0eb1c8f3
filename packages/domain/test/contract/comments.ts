import { expect, layer } from "@effect/vitest"
import { blocksOf } from "@octavo/markdown"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import {
  Actor,
  ChangeRequestContent,
  ChangeRequestId,
  type ChangeRequestKey,
  ChangeRequestMerges,
  ChangeRequests,
  ChangeRequestViewFacts,
  ChangeRequestViewFactsOneByOne,
  type Comment,
  CommentId,
  CommentReplyId,
  CommentRepository,
  CommentReplies,
  Comments,
  CommentViewFacts,
  CommentViewFactsOneByOne,
  PageId,
  RevisionId,
  SpaceChangeRequestReads,
  SpaceChangeRequestReadsOneByOne,
  SpaceCommentReads,
  SpaceCommentReadsOneByOne,
  SpaceId,
  Spaces,
  type StoragePorts,
  type UserId
} from "../../src/index.js"
import { adminWithNewSpace, at, countsOf, makeMember, makeUser, sameAsOneByOne, type Services, uniqueId } from "./fixtures.js"

const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

const first = (limit = 50) => ({ limit, after: Option.none() })

const comment = (fields: Partial<Comment> & Pick<Comment, "spaceId" | "changeRequestId" | "postedBy">): Comment => ({
  id: CommentId.make(uniqueId("c")),
  postedAt: at(1),
  body: "Hello",
  status: "open",
  revisionId: RevisionId.make(uniqueId("r")),
  replies: 0,
  ...fields
})

/** The comments slice of the storage contract: the repository, then the use cases over it. */
export const commentsContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("comments", (it) => {
    it.effect("storage: lists by (postedAt, id) with filters, counts replies, reactions and open comments", () =>
      Effect.gen(function*() {
        const repo = yield* CommentRepository
        const spaceId = SpaceId.make(uniqueId("s"))
        const changeRequestId = ChangeRequestId.make(uniqueId("cr"))
        const [ann, bob] = [uniqueId("u") as UserId, uniqueId("u") as UserId]
        const pageId = PageId.make(uniqueId("p"))
        const a = comment({ spaceId, changeRequestId, postedBy: ann, postedAt: at(1) })
        const b = comment({ spaceId, changeRequestId, postedBy: bob, postedAt: at(2), pageId, node: { id: "k1", preview: "Text" } })
        const c = comment({
          spaceId,
          changeRequestId,
          postedBy: ann,
          postedAt: at(2),
          status: "resolved",
          resolvedAt: at(3),
          resolvedBy: bob
        })
        const elsewhere = comment({ spaceId, changeRequestId: ChangeRequestId.make(uniqueId("cr")), postedBy: ann })
        for (const each of [a, b, c, elsewhere]) yield* repo.insert(each)
        expect(Option.getOrThrow(yield* repo.findById(b.id))).toEqual(b)
        expect(Option.getOrThrow(yield* repo.findById(c.id))).toEqual(c)

        const ids = (page: { readonly items: ReadonlyArray<Comment> }) => page.items.map((x) => x.id)
        const tie = [b.id, c.id].sort()
        expect(ids(yield* repo.list(changeRequestId, {}, "asc", first()))).toEqual([a.id, ...tie])
        expect(ids(yield* repo.list(changeRequestId, {}, "desc", first()))).toEqual([...tie].reverse().concat(a.id))
        const paged = yield* repo.list(changeRequestId, {}, "asc", first(2))
        expect(paged.count).toBe(3)
        const rest = yield* repo.list(changeRequestId, {}, "asc", { limit: 2, after: paged.next })
        expect(ids(rest)).toEqual([tie[1]])
        expect(rest.next).toEqual(Option.none())
        expect(ids(yield* repo.list(changeRequestId, { status: "resolved" }, "asc", first()))).toEqual([c.id])
        expect(ids(yield* repo.list(changeRequestId, { pageId }, "asc", first()))).toEqual([b.id])
        expect(ids(yield* repo.list(changeRequestId, { authors: [bob] }, "asc", first()))).toEqual([b.id])
        // An empty list of authors is no filter, as the port says.
        expect((yield* repo.list(changeRequestId, { authors: [] }, "asc", first())).count).toBe(3)
        expect((yield* repo.list(changeRequestId, { authors: [ann], status: "open" }, "asc", first())).count).toBe(1)

        // `update` writes the body and the status, never the reply count.
        const r1 = {
          id: CommentReplyId.make(uniqueId("cr")),
          commentId: a.id,
          spaceId,
          changeRequestId,
          postedBy: bob,
          postedAt: at(4),
          body: "One"
        }
        const r2 = { ...r1, id: CommentReplyId.make(uniqueId("cr")), postedBy: ann, postedAt: at(5), body: "Two" }
        const r3 = { ...r1, id: CommentReplyId.make(uniqueId("cr")), postedAt: at(6), body: "Three" }
        for (const reply of [r3, r1, r2]) yield* repo.insertReply(reply)
        yield* repo.update({ ...a, body: "Edited", editedAt: at(7), replies: 0 })
        expect(Option.getOrThrow(yield* repo.findById(a.id))).toMatchObject({ body: "Edited", editedAt: at(7), replies: 3 })
        expect((yield* repo.listReplies(a.id, first())).items.map((r) => r.id)).toEqual([r1.id, r2.id, r3.id])
        yield* repo.updateReply({ ...r2, body: "Two, edited", editedAt: at(8) })
        expect(Option.getOrThrow(yield* repo.findReply(r2.id))).toEqual({ ...r2, body: "Two, edited", editedAt: at(8) })
        expect(yield* repo.repliersOf([a.id, b.id])).toEqual(
          new Map([[a.id, [
            { userId: bob, count: 2, updatedAt: at(6) },
            { userId: ann, count: 1, updatedAt: at(5) }
          ]]])
        )

        // Reactions: once per user and emoji; adding again keeps the first time; removing what is not there is nothing.
        yield* repo.react(a.id, a.id, ann, { added: ["👍", "🎉"], removed: [], at: at(10) })
        yield* repo.react(a.id, a.id, bob, { added: ["👍"], removed: ["🚀"], at: at(11) })
        yield* repo.react(a.id, a.id, ann, { added: ["👍"], removed: ["🎉"], at: at(12) })
        yield* repo.react(a.id, r1.id, ann, { added: ["🚀"], removed: [], at: at(13) })
        const reactions = yield* repo.reactionsOf([a.id, r1.id, b.id])
        expect(reactions.get(a.id)).toEqual([
          { subjectId: a.id, userId: ann, emoji: "👍", reactedAt: at(10) },
          { subjectId: a.id, userId: bob, emoji: "👍", reactedAt: at(11) }
        ])
        expect(reactions.get(r1.id)).toEqual([{ subjectId: r1.id, userId: ann, emoji: "🚀", reactedAt: at(13) }])
        expect(reactions.has(b.id)).toBe(false)

        yield* repo.removeReply(r1.id)
        expect(yield* repo.findReply(r1.id)).toEqual(Option.none())
        expect(Option.getOrThrow(yield* repo.findById(a.id)).replies).toBe(2)
        expect((yield* repo.reactionsOf([r1.id])).has(r1.id)).toBe(false)
        yield* repo.remove(a.id)
        expect(yield* repo.findById(a.id)).toEqual(Option.none())
        expect(yield* repo.findReply(r2.id)).toEqual(Option.none())
        expect((yield* repo.reactionsOf([a.id])).has(a.id)).toBe(false)

        const other = SpaceId.make(uniqueId("s"))
        yield* repo.countOpen(spaceId, 2)
        yield* repo.countOpen(spaceId, -1)
        expect(yield* repo.openCounts([spaceId, other])).toEqual(new Map([[spaceId, 1]]))
      }))

    it.effect("threads: targets follow the change request, counters follow the threads, limits and roles hold", () =>
      Effect.gen(function*() {
        const spaces = yield* Spaces
        const changeRequests = yield* ChangeRequests
        const changeRequestContent = yield* ChangeRequestContent
        const merges = yield* ChangeRequestMerges
        const comments = yield* Comments
        const replies = yield* CommentReplies
        const { organization, run, space } = yield* adminWithNewSpace("Commented")
        const asUser = (role: "read" | "comment" | "review") =>
          Effect.gen(function*() {
            const user = yield* makeUser()
            yield* makeMember(organization, user, role)
            return Effect.provideService(Actor, user)
          })
        const reader = yield* asUser("read")
        const commenter = yield* asUser("comment")
        const reviewer = yield* asUser("review")
        const spaceCount = Effect.map(run(spaces.get(space.id)), (view) => countsOf(view).comments)

        const cr = yield* run(changeRequests.create(space.id, { subject: "Docs" }))
        const reference = String(cr.changeRequest.number)
        // The space counts its open comments; with one change request, its own count agrees.
        const counter = Effect.gen(function*() {
          const count = yield* spaceCount
          expect((yield* run(changeRequests.get(space.id, reference))).openComments).toBe(count)
          return count
        })
        const edited = yield* run(changeRequestContent.edit(space.id, reference, {
          changes: [
            { operation: "insert_page", title: "Guide", document: { markdown: "First block.\n\nSecond block.\n" } },
            { operation: "insert_page", title: "Other", document: { markdown: "Elsewhere." } }
          ]
        }))
        const pages = [...edited.content.pages.values()]
        const guide = pages.find((p) => p.title === "Guide")!
        const other = pages.find((p) => p.title === "Other")!
        const [firstBlock, secondBlock] = blocksOf(guide.markdown)

        // On a page, on a block (its page looked up), and on nothing; links resolve as in pages.
        const onPage = yield* reviewer(comments.post(space.id, reference, { page: guide.id, body: { markdown: "See [other](other.md)" } }))
        expect(onPage.comment.body).toBe(`See [other](/pages/${other.id})`)
        expect(onPage.page).toMatchObject({ id: guide.id, title: "Guide", path: "guide", outdated: false })
        expect(onPage.comment.revisionId).toBe(edited.revision.id)
        // The test clock stands still: move it so that postedAt orders the comments.
        yield* TestClock.adjust("1 second")
        const onBlock = yield* commenter(comments.post(space.id, reference, { node: secondBlock!.key, body: { markdown: "Typo?" } }))
        expect(onBlock.comment).toMatchObject({ pageId: guide.id, node: { id: secondBlock!.key, preview: "Second block." } })
        yield* TestClock.adjust("1 second")
        const loose = yield* commenter(comments.post(space.id, reference, {
          body: {
            document: {
              object: "document",
              nodes: [{
                object: "block",
                type: "paragraph",
                nodes: [{ object: "text", leaves: [{ object: "leaf", text: "From a document", marks: [] }] }]
              }]
            }
          }
        }))
        expect(loose.comment.body).toBe("From a document")
        expect(yield* counter).toBe(3)

        // Bad input changes nothing.
        for (
          const input of [
            { body: { markdown: "   " } },
            { body: { markdown: "x".repeat(20_001) } },
            { body: {} },
            { page: "nope", body: { markdown: "x" } },
            { node: "no-such-block", body: { markdown: "x" } },
            { page: other.id, node: firstBlock!.key, body: { markdown: "x" } }
          ]
        ) {
          expect(failureTag(yield* Effect.either(commenter(comments.post(space.id, reference, input))))).toBe("InvalidInput")
        }
        expect(failureTag(yield* Effect.either(reader(comments.post(space.id, reference, { body: { markdown: "x" } }))))).toBe("Forbidden")
        expect(yield* counter).toBe(3)

        // Replies count; reactions normalize and are idempotent; editedAt moves only with the body.
        const reply = yield* run(replies.reply(space.id, reference, onPage.comment.id, { body: { markdown: "Fixed." } }))
        yield* commenter(replies.reply(space.id, reference, onPage.comment.id, { body: { markdown: "Thanks." } }))
        const reacted = yield* commenter(
          comments.update(space.id, reference, onPage.comment.id, { addedReactions: ["1f44d", "👍", "U+1F389"] })
        )
        // Reactions made at once list by emoji.
        expect(reacted.reactions.map((r) => [r.emoji, r.users.length])).toEqual([["🎉", 1], ["👍", 1]])
        expect(reacted.comment.editedAt).toBeUndefined()
        expect(reacted.comment.replies).toBe(2)
        const both = yield* commenter(
          comments.update(space.id, reference, onPage.comment.id, { addedReactions: ["🚀"], removedReactions: ["🚀", "🎉"] })
        )
        expect(both.reactions.map((r) => r.emoji)).toEqual(["👍"])
        expect(
          failureTag(
            yield* Effect.either(commenter(comments.update(space.id, reference, onPage.comment.id, { addedReactions: ["smile"] })))
          )
        )
          .toBe("InvalidInput")
        expect(
          failureTag(yield* Effect.either(reader(comments.update(space.id, reference, onPage.comment.id, { addedReactions: ["👍"] }))))
        )
          .toBe("Forbidden")
        const same = yield* reviewer(
          comments.update(space.id, reference, onPage.comment.id, { body: { markdown: "See [other](other.md)" } })
        )
        expect(same.comment.editedAt).toBeUndefined()

        // Roles: another commenter may not edit or resolve; the author and reviewers may resolve; one forbidden field refuses all.
        expect(
          failureTag(
            yield* Effect.either(commenter(comments.update(space.id, reference, onPage.comment.id, { body: { markdown: "Mine now" } })))
          )
        )
          .toBe("Forbidden")
        expect(
          failureTag(
            yield* Effect.either(
              commenter(comments.update(space.id, reference, onPage.comment.id, { resolved: true, addedReactions: ["🎉"] }))
            )
          )
        )
          .toBe("Forbidden")
        expect((yield* reviewer(comments.get(space.id, reference, onPage.comment.id))).reactions.map((r) => r.emoji)).toEqual(["👍"])
        const resolved = yield* reviewer(comments.update(space.id, reference, onBlock.comment.id, { resolved: true }))
        expect(resolved.comment).toMatchObject({ status: "resolved", resolvedBy: expect.any(String) })
        expect(yield* counter).toBe(2)
        const reopened = yield* commenter(comments.update(space.id, reference, onBlock.comment.id, { resolved: false }))
        expect(reopened.comment.status).toBe("open")
        expect(reopened.comment.resolvedAt).toBeUndefined()
        expect(yield* counter).toBe(3)
        yield* commenter(comments.update(space.id, reference, onBlock.comment.id, { resolved: true }))
        expect(yield* counter).toBe(2)

        // Lists: status, page (its blocks too), authors, order.
        const listed = (query: Parameters<typeof comments.list>[2]) =>
          Effect.map(reader(comments.list(space.id, reference, query, first())), (page) => page.items.map((v) => v.comment.id))
        expect(yield* listed({ status: "open", order: "asc" })).toEqual([onPage.comment.id, loose.comment.id])
        expect((yield* listed({ targetPage: guide.id })).sort()).toEqual([onPage.comment.id, onBlock.comment.id].sort())
        expect(yield* listed({ targetPage: "not an id" })).toEqual([])
        expect(yield* listed({ authors: [onPage.comment.postedBy] })).toEqual([onPage.comment.id])

        // The block's text changes: that comment is outdated; the page's is not. The page goes: both are.
        yield* run(changeRequestContent.edit(space.id, reference, {
          changes: [{ operation: "update_page", page: guide.id, document: { markdown: "First block.\n\nSecond block, fixed.\n" } }]
        }))
        const afterEdit = yield* reader(comments.list(space.id, reference, { targetPage: guide.id }, first()))
        expect(Object.fromEntries(afterEdit.items.map((v) => [v.comment.id, v.page?.outdated]))).toEqual({
          [onPage.comment.id]: false,
          [onBlock.comment.id]: true
        })
        yield* run(changeRequestContent.edit(space.id, reference, { changes: [{ operation: "delete_page", page: guide.id }] }))
        const gone = yield* reader(comments.get(space.id, reference, onPage.comment.id))
        expect(gone.page).toMatchObject({ id: guide.id, title: "Guide", outdated: true })

        // Deleting: the author or an admin; replies and their reactions go with the comment; counters follow.
        expect(failureTag(yield* Effect.either(commenter(replies.removeReply(space.id, reference, onPage.comment.id, reply.reply.id)))))
          .toBe("Forbidden")
        expect(failureTag(yield* Effect.either(commenter(comments.remove(space.id, reference, onPage.comment.id))))).toBe("Forbidden")
        yield* run(comments.remove(space.id, reference, onPage.comment.id))
        expect(failureTag(yield* Effect.either(run(replies.getReply(space.id, reference, onPage.comment.id, reply.reply.id))))).toBe(
          "NotFound"
        )
        expect(yield* counter).toBe(1)

        // A merged change request takes no new comments or replies, and stays readable.
        yield* run(merges.merge(space.id, reference))
        expect(failureTag(yield* Effect.either(commenter(comments.post(space.id, reference, { body: { markdown: "Late" } }))))).toBe(
          "Conflict"
        )
        expect(
          failureTag(yield* Effect.either(commenter(replies.reply(space.id, reference, loose.comment.id, { body: { markdown: "Late" } }))))
        )
          .toBe("Conflict")
        expect((yield* reader(comments.list(space.id, reference, {}, first()))).count).toBe(2)
        expect((yield* reader(comments.get(space.id, reference, loose.comment.id))).permissions).toMatchObject({ view: true, reply: false })

        // Another organization's member does not find the thread.
        const stranger = yield* makeUser()
        expect(
          failureTag(yield* Effect.either(Effect.provideService(comments.get(space.id, reference, loose.comment.id), Actor, stranger)))
        )
          .toBe("NotFound")
      }))

    it.effect("reads of several contexts at once: a space with a change request, the facts of change requests and of comments", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const comments = yield* Comments
        const replies = yield* CommentReplies
        const { organization, run, space } = yield* adminWithNewSpace("Read together")
        const commenter = yield* makeUser()
        yield* makeMember(organization, commenter, "edit")
        const asCommenter = Effect.provideService(Actor, commenter)
        const first = yield* run(changeRequests.create(space.id, { subject: "First" }))
        const second = yield* asCommenter(changeRequests.create(space.id, { subject: "Second" }))
        const { run: runElsewhere, space: other } = yield* adminWithNewSpace("Elsewhere")
        const onPage = yield* run(comments.post(space.id, "1", { body: { markdown: "One" } }))
        const two = yield* asCommenter(comments.post(space.id, "1", { body: { markdown: "Two" } }))
        yield* asCommenter(replies.reply(space.id, "1", onPage.comment.id, { body: { markdown: "A reply" } }))
        const reply = yield* run(replies.reply(space.id, "1", onPage.comment.id, { body: { markdown: "Another" } }))
        yield* asCommenter(comments.update(space.id, "1", onPage.comment.id, { addedReactions: ["👍"] }))
        yield* asCommenter(replies.updateReply(space.id, "1", onPage.comment.id, reply.reply.id, { addedReactions: ["🎉"] }))

        const spaceReads = (key: ChangeRequestKey, userId: UserId) =>
          sameAsOneByOne(
            Effect.flatMap(SpaceChangeRequestReads, (reads) => reads.find(space.id, userId, key)),
            SpaceChangeRequestReadsOneByOne
          )
        const byId = yield* spaceReads({ id: second.changeRequest.id }, commenter.id)
        expect(
          Option.map(byId, (read) => [read.item.id, Option.map(read.changeRequest, (cr) => cr.number), Option.isSome(read.membership)])
        )
          .toEqual(Option.some([space.id, Option.some(2), true]))
        expect(Option.flatMap(yield* spaceReads({ number: 1 }, commenter.id), (read) => read.changeRequest)).toEqual(
          Option.some(first.changeRequest)
        )
        // Another space's change request, a number not used, a user who is no member, a space that does not exist.
        const elsewhere = yield* runElsewhere(changeRequests.create(other.id, { subject: "Not here" }))
        expect(Option.map(yield* spaceReads({ id: elsewhere.changeRequest.id }, commenter.id), (read) => read.changeRequest))
          .toEqual(Option.some(Option.none()))
        expect(Option.map(yield* spaceReads({ number: 9 }, commenter.id), (read) => read.changeRequest)).toEqual(Option.some(Option.none()))
        const stranger = yield* makeUser()
        expect(Option.map(yield* spaceReads({ number: 1 }, stranger.id), (read) => read.membership)).toEqual(Option.some(Option.none()))
        expect(
          yield* sameAsOneByOne(
            Effect.flatMap(SpaceChangeRequestReads, (reads) => reads.find(SpaceId.make(uniqueId("s")), commenter.id, { number: 1 })),
            SpaceChangeRequestReadsOneByOne
          )
        ).toEqual(Option.none())

        // With a comment of the change request and a reply of the comment.
        const threadReads = (key: ChangeRequestKey, commentId: CommentId, replyId: Option.Option<CommentReplyId>) =>
          Effect.map(
            sameAsOneByOne(
              Effect.flatMap(SpaceCommentReads, (reads) => reads.find(space.id, commenter.id, key, commentId, replyId)),
              SpaceCommentReadsOneByOne
            ),
            Option.map((read) => [
              Option.map(read.changeRequest, (cr) => cr.number),
              Option.map(read.comment, (c) => c.body),
              Option.map(read.reply, (r) => r.body)
            ])
          )
        expect(yield* threadReads({ number: 1 }, onPage.comment.id, Option.some(reply.reply.id)))
          .toEqual(Option.some([Option.some(1), Option.some("One"), Option.some("Another")]))
        expect(yield* threadReads({ id: first.changeRequest.id }, two.comment.id, Option.none()))
          .toEqual(Option.some([Option.some(1), Option.some("Two"), Option.none()]))
        // A comment of another change request, a reply of another comment, ids that name nothing.
        expect(yield* threadReads({ number: 2 }, onPage.comment.id, Option.some(reply.reply.id)))
          .toEqual(Option.some([Option.some(2), Option.none(), Option.none()]))
        expect(yield* threadReads({ number: 1 }, two.comment.id, Option.some(reply.reply.id)))
          .toEqual(Option.some([Option.some(1), Option.some("Two"), Option.none()]))
        expect(yield* threadReads({ number: 1 }, CommentId.make(uniqueId("c")), Option.some(CommentReplyId.make(uniqueId("cr")))))
          .toEqual(Option.some([Option.some(1), Option.none(), Option.none()]))

        const crFacts = yield* sameAsOneByOne(
          Effect.flatMap(ChangeRequestViewFacts, (facts) => facts.of([first.changeRequest, second.changeRequest])),
          ChangeRequestViewFactsOneByOne
        )
        expect([...crFacts.authors.keys()].sort()).toEqual([commenter.id, first.changeRequest.createdBy].sort())
        expect([...crFacts.openComments]).toEqual([[first.changeRequest.id, 2]])
        expect(
          yield* sameAsOneByOne(Effect.flatMap(ChangeRequestViewFacts, (facts) => facts.of([])), ChangeRequestViewFactsOneByOne)
        ).toEqual({ authors: new Map(), openComments: new Map() })

        const asked = { subjects: [onPage.comment.id, reply.reply.id], repliersOf: [onPage.comment.id], users: [onPage.comment.postedBy] }
        const commentFacts = yield* sameAsOneByOne(Effect.flatMap(CommentViewFacts, (facts) => facts.of(asked)), CommentViewFactsOneByOne)
        expect(new Set(commentFacts.reactions.keys())).toEqual(new Set([onPage.comment.id, reply.reply.id]))
        expect(commentFacts.reactions.get(onPage.comment.id)?.map((r) => [r.userId, r.emoji])).toEqual([[commenter.id, "👍"]])
        expect(commentFacts.reactions.get(reply.reply.id)?.map((r) => [r.userId, r.emoji])).toEqual([[commenter.id, "🎉"]])
        expect(commentFacts.repliers.get(onPage.comment.id)?.map((r) => r.count)).toEqual([1, 1])
        expect([...commentFacts.users.keys()].sort()).toEqual([commenter.id, onPage.comment.postedBy].sort())
        expect(
          yield* sameAsOneByOne(
            Effect.flatMap(CommentViewFacts, (facts) => facts.of({ subjects: [], repliersOf: [], users: [] })),
            CommentViewFactsOneByOne
          )
        ).toEqual({ reactions: new Map(), repliers: new Map(), users: new Map() })
      }))
  })
