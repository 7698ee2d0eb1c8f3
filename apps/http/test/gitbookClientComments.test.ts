import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { call, testServer } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { addMember, newUser } from "./scenario.js"

// A change request's review through GitBook's own client (`@gitbook/api`): a reviewer comments on
// a page, the author replies, both react, the reviewer resolves, the page goes. Every request and
// answer is the client's, and every answer is checked against GitBook's schema.

const run = <A>(request: () => Promise<A>) => Effect.promise(request)

/** The status a refused request answers, as the client's error carries it. */
const refusal = <A>(request: () => Promise<A>) =>
  Effect.map(Effect.either(Effect.tryPromise(request)), (result) =>
    Either.match(result, {
      onLeft: (error) => (error.error as { readonly code?: number }).code,
      onRight: () => "succeeded" as const
    }))

layer(testServer(MemoryStorage), { excludeTestServices: true })("comments through GitBook's official client", (it) => {
  it.effect("review a change request: comment, reply, react, resolve, and the page's deletion outdates the comment", () =>
    Effect.gen(function*() {
      const admin = yield* newUser("Ada Admin")
      const author = yield* newUser("Eddie Editor")
      const reviewer = yield* newUser("Rey Reviewer")
      const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
      yield* addMember(organizationId, admin, author, "edit")
      yield* addMember(organizationId, admin, reviewer, "review")
      const asAdmin = yield* clientFor(admin.token)
      const asAuthor = yield* clientFor(author.token)
      const asReviewer = yield* clientFor(reviewer.token)

      const space = (yield* run(() => asAdmin.orgs.createSpace(organizationId, { title: "Handbook" }))).data
      const cr = (yield* run(() => asAuthor.spaces.createChangeRequest(space.id, { subject: "Install guide" }))).data
      const written = (yield* run(() =>
        asAuthor.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [{ operation: "insert_page", title: "Install", document: { markdown: "Run the installer.\n" } }]
        }, { compat: false })
      )).data
      if (!("changes" in written) || written.changes[0]?.object !== "created_page") throw new Error("compat=false answers the page")
      const pageId = written.changes[0].page.id
      yield* run(() => asAuthor.spaces.updateChangeRequestById(space.id, cr.id, { status: "open" }))

      const posted = yield* run(() =>
        asReviewer.spaces.postCommentInChangeRequest(space.id, cr.id, { page: pageId, body: { markdown: "Which versions?" } })
      )
      expect(posted.status).toBe(201)
      const comment = posted.data
      expect(posted.headers.get("location")).toBe(comment.urls.location)
      expect(comment).toMatchObject({
        object: "comment",
        status: "open",
        postedBy: { id: reviewer.id },
        body: { markdown: "Which versions?" },
        target: { changeRequest: cr.id, space: space.id, page: { id: pageId, outdated: false } },
        permissions: { view: true, edit: true, reply: true, delete: true }
      })
      expect((yield* run(() => asAdmin.spaces.getSpaceById(space.id))).data.comments).toBe(1)

      const reply = (yield* run(() =>
        asAuthor.spaces.postCommentReplyInChangeRequest(space.id, cr.id, comment.id, { body: { markdown: "All of them." } })
      )).data
      expect(reply).toMatchObject({ object: "comment-reply", postedBy: { id: author.id }, body: { markdown: "All of them." } })

      // Both react, by the character and by its code point; the reviewer also to the reply.
      yield* run(() =>
        asReviewer.spaces.updateCommentInChangeRequest(space.id, cr.id, comment.id, { addedReactions: ["👍"] })
      )
      const reacted = (yield* run(() =>
        asAuthor.spaces.updateCommentInChangeRequest(space.id, cr.id, comment.id, { addedReactions: ["1f44d"] })
      )).data
      expect(reacted.reactions).toMatchObject([{
        emoji: "👍",
        count: 2,
        users: [{ user: { id: reviewer.id } }, { user: { id: author.id } }]
      }])
      expect(reacted.editedAt).toBeUndefined()
      const replyReacted = (yield* run(() =>
        asReviewer.spaces.updateCommentReplyInChangeRequest(space.id, cr.id, comment.id, reply.id, { addedReactions: ["🎉"] })
      )).data
      expect(replyReacted.reactions).toMatchObject([{ emoji: "🎉", count: 1 }])

      // The author, an editor, may not resolve the reviewer's comment; the reviewer may.
      expect(
        yield* refusal(() =>
          asAuthor.spaces.updateCommentInChangeRequest(space.id, cr.id, comment.id, { resolved: true })
        )
      ).toBe(403)
      const resolved =
        (yield* run(() => asReviewer.spaces.updateCommentInChangeRequest(space.id, cr.id, comment.id, { resolved: true }))).data
      expect(resolved).toMatchObject({ status: "resolved", resolvedBy: { id: reviewer.id } })
      expect((yield* run(() => asAdmin.spaces.getSpaceById(space.id))).data.comments).toBe(0)

      yield* run(() =>
        asAuthor.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: "delete_page", page: pageId }] })
      )
      const outdated = (yield* run(() => asAuthor.spaces.getCommentInChangeRequest(space.id, cr.id, comment.id))).data
      expect(outdated).toMatchObject({ status: "resolved", replies: 1, target: { page: { id: pageId, outdated: true } } })

      // Lists with GitBook's filters, `authors` as the client repeats it.
      const listed = (yield* run(() =>
        asAuthor.spaces.listCommentsInChangeRequest(space.id, cr.id, {
          status: "resolved",
          targetPage: pageId,
          authors: [reviewer.id, author.id],
          order: "asc",
          format: "document"
        })
      )).data
      expect(listed).toMatchObject({ count: 1, items: [{ id: comment.id, body: { document: { object: "document" } } }] })
      expect((yield* run(() => asAuthor.spaces.listCommentsInChangeRequest(space.id, cr.id, { status: "open" }))).data.items).toEqual([])
      const replies = (yield* run(() => asReviewer.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, comment.id))).data
      expect(replies.items.map((r) => r.id)).toEqual([reply.id])

      // The author edits the reply; read back as a document.
      const edited = (yield* run(() =>
        asAuthor.spaces.updateCommentReplyInChangeRequest(space.id, cr.id, comment.id, reply.id, { body: { markdown: "Every one." } })
      )).data
      expect(edited.editedAt).toEqual(expect.any(String))
      const asDocument = (yield* run(() =>
        asReviewer.spaces.getCommentReplyInChangeRequest(space.id, cr.id, comment.id, reply.id, { format: "document" })
      )).data
      expect(asDocument.body).toMatchObject({ document: { object: "document" } })

      // Deleting: the reply, then the comment; neither reads back.
      const replyGone = yield* run(() => asAuthor.spaces.deleteCommentReplyInChangeRequest(space.id, cr.id, comment.id, reply.id))
      expect(replyGone.status).toBe(204)
      expect((yield* run(() => asReviewer.spaces.getCommentInChangeRequest(space.id, cr.id, comment.id))).data.replies).toBe(0)
      const commentGone = yield* run(() => asReviewer.spaces.deleteCommentInChangeRequest(space.id, cr.id, comment.id))
      expect(commentGone.status).toBe(204)
      expect(yield* refusal(() => asReviewer.spaces.getCommentInChangeRequest(space.id, cr.id, comment.id))).toBe(404)
      expect((yield* run(() => asAdmin.spaces.getSpaceById(space.id))).data.comments).toBe(0)
    }))
})
