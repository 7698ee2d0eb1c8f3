import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type Answer, call, testServer } from "./harness.js"
import { addMember, chars, newUser, type TestUser } from "./scenario.js"

// Change request comments over HTTP (conventions-2.md §3): threads, replies, reactions, resolving,
// the limits, the filters and who may do what.

/** A paragraph as GitBook's JSON document writes it. */
const paragraphDocument = (text: string) => ({
  object: "document",
  nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }] }]
})

/**
 * An organization with a member at each role (reader, commenter, editor who writes the change
 * request, reviewer), a guest and an outsider; a space whose open change request adds the pages
 * Guide (two paragraphs) and Other.
 */
const setup = Effect.gen(function*() {
  const admin = yield* newUser("Ada Admin")
  const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
  const member = (name: string, role: string | null) =>
    Effect.gen(function*() {
      const user = yield* newUser(name)
      yield* addMember(organizationId, admin, user, role)
      return user
    })
  const reader = yield* member("Rita Reader", "read")
  const commenter = yield* member("Cole Commenter", "comment")
  const author = yield* member("Eddie Editor", "edit")
  const reviewer = yield* member("Rey Reviewer", "review")
  const guest = yield* member("Gus Guest", null)
  const outsider = yield* newUser("Otto Outsider")
  yield* call("POST", "/v1/orgs", { token: outsider.token, body: { title: "Elsewhere" } })
  const space = yield* call("POST", `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: "Handbook" } })
  const spaceId = space.body.id as string
  const cr = yield* call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: author.token, body: { subject: "Guides" } })
  expect(cr.status).toBe(201)
  const crPath = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`
  const edited = yield* call("POST", `${crPath}/content?compat=false`, {
    token: author.token,
    body: {
      changes: [
        { operation: "insert_page", title: "Guide", document: { markdown: "First paragraph.\n\nSecond paragraph.\n" } },
        { operation: "insert_page", title: "Other", document: { markdown: "Elsewhere." } }
      ]
    }
  })
  expect(edited.status).toBe(200)
  expect((yield* call("PATCH", crPath, { token: author.token, body: { status: "open" } })).status).toBe(200)
  const [guideId, otherId] = edited.body.changes.map((c: { page: { id: string } }) => c.page.id) as [string, string]
  // By number, as the change request endpoints also take it.
  const comments = `/v1/spaces/${spaceId}/change-requests/${cr.body.number}/comments`
  return {
    admin,
    reader,
    commenter,
    author,
    reviewer,
    guest,
    outsider,
    spaceId,
    changeRequestId: cr.body.id as string,
    crPath,
    comments,
    guideId,
    otherId
  }
})

type Setup = Effect.Effect.Success<typeof setup>

const post = (s: Setup, user: TestUser, body: unknown) => call("POST", s.comments, { token: user.token, body })
const remark = (s: Setup, user: TestUser, markdown: string, target: { page?: string; node?: string } = {}) =>
  Effect.map(post(s, user, { ...target, body: { markdown } }), (answer) => {
    expect([answer.status, answer.body]).toEqual([201, expect.objectContaining({ object: "comment" })])
    return answer.body.id as string
  })
const update = (s: Setup, user: TestUser | undefined, id: string, body: unknown) =>
  call("PUT", `${s.comments}/${id}`, { token: user?.token, body })
const read = (s: Setup, user: TestUser, id: string, query = "") => call("GET", `${s.comments}/${id}${query}`, { token: user.token })
const list = (s: Setup, user: TestUser, query = "") => call("GET", `${s.comments}${query}`, { token: user.token })
/**
 * The space's count of open comments, as GET space answers it; its one change request's `comments`
 * (GitBook's count of the open comments on it) agrees.
 */
const openCount = (s: Setup) =>
  Effect.gen(function*() {
    const count = (yield* call("GET", `/v1/spaces/${s.spaceId}`, { token: s.admin.token })).body.comments as number
    expect((yield* call("GET", s.crPath, { token: s.admin.token })).body.comments).toBe(count)
    return count
  })
const ids = (answer: Answer) => answer.body.items.map((c: { id: string }) => c.id) as Array<string>

/** The keys of a change request page's top-level blocks, as GitBook's document format gives them. */
const blockKeys = (s: Setup, pageId: string) =>
  Effect.map(
    call("GET", `${s.crPath}/content/page/${pageId}?format=document`, { token: s.admin.token }),
    (page) => page.body.document.nodes.map((node: { key: string }) => node.key) as Array<string>
  )

layer(testServer(MemoryStorage), { excludeTestServices: true })("change request comments over HTTP", (it) => {
  it.effect("a reviewer comments on a page, the author replies, both react, the reviewer resolves, the page goes", () =>
    Effect.gen(function*() {
      const s = yield* setup
      expect(yield* openCount(s)).toBe(0)
      const posted = yield* post(s, s.reviewer, { page: s.guideId, body: { markdown: "Say more about installing." } })
      expect(posted.status).toBe(201)
      expect(posted.headers["location"]).toBe(posted.body.urls.location)
      const commentId = posted.body.id as string
      const revision = (yield* call("GET", s.crPath, { token: s.admin.token })).body.revision
      expect(posted.body).toEqual({
        object: "comment",
        id: commentId,
        postedBy: expect.objectContaining({ object: "user", id: s.reviewer.id, displayName: "Rey Reviewer" }),
        postedAt: expect.any(String),
        reactions: [],
        replies: 0,
        repliers: [],
        body: { markdown: "Say more about installing." },
        target: {
          changeRequest: s.changeRequestId,
          space: s.spaceId,
          revision,
          page: expect.objectContaining({ id: s.guideId, title: "Guide", path: "guide", outdated: false })
        },
        urls: { location: `https://docs.test/v1/spaces/${s.spaceId}/change-requests/${s.changeRequestId}/comments/${commentId}` },
        permissions: { view: true, edit: true, reply: true, delete: true },
        status: "open"
      })
      expect(yield* openCount(s)).toBe(1)

      const replied = yield* call("POST", `${s.comments}/${commentId}/replies`, {
        token: s.author.token,
        body: { body: { markdown: "Added a section." } }
      })
      expect(replied.status).toBe(201)
      expect(replied.headers["location"]).toBe(replied.body.urls.location)
      expect(replied.body).toMatchObject({
        object: "comment-reply",
        postedBy: { id: s.author.id },
        body: { markdown: "Added a section." },
        reactions: [],
        urls: {
          location:
            `https://docs.test/v1/spaces/${s.spaceId}/change-requests/${s.changeRequestId}/comments/${commentId}/replies/${replied.body.id}`
        }
      })
      const replyId = replied.body.id as string
      const afterReply = yield* read(s, s.reviewer, commentId)
      expect(afterReply.body).toMatchObject({ replies: 1, repliers: [{ user: { id: s.author.id }, count: 1 }] })
      expect(yield* openCount(s)).toBe(1)

      // Both react to the comment, one by the character and one by its code point; the reviewer to the reply.
      expect((yield* update(s, s.reviewer, commentId, { addedReactions: ["👍"] })).status).toBe(200)
      const reacted = yield* update(s, s.author, commentId, { addedReactions: ["1f44d"] })
      expect(reacted.body.reactions).toEqual([{
        emoji: "👍",
        count: 2,
        users: [
          { user: expect.objectContaining({ id: s.reviewer.id }), reactedAt: expect.any(String) },
          { user: expect.objectContaining({ id: s.author.id }), reactedAt: expect.any(String) }
        ]
      }])
      expect(reacted.body.editedAt).toBeUndefined()
      const replyReacted = yield* call("PUT", `${s.comments}/${commentId}/replies/${replyId}`, {
        token: s.reviewer.token,
        body: { addedReactions: ["🎉"] }
      })
      expect(replyReacted.body.reactions).toMatchObject([{ emoji: "🎉", count: 1, users: [{ user: { id: s.reviewer.id } }] }])
      expect(replyReacted.body.editedAt).toBeUndefined()

      const resolved = yield* update(s, s.reviewer, commentId, { resolved: true })
      expect(resolved.body).toMatchObject({ status: "resolved", resolvedAt: expect.any(String), resolvedBy: { id: s.reviewer.id } })
      expect(yield* openCount(s)).toBe(0)
      // Resolving again changes nothing.
      expect((yield* update(s, s.reviewer, commentId, { resolved: true })).body.resolvedAt).toBe(resolved.body.resolvedAt)
      expect(yield* openCount(s)).toBe(0)

      const deleted = yield* call("POST", `${s.crPath}/content`, {
        token: s.author.token,
        body: { changes: [{ operation: "delete_page", page: s.guideId }] }
      })
      expect(deleted.status).toBe(200)
      const outdated = yield* read(s, s.author, commentId)
      expect(outdated.body.target.page).toMatchObject({ id: s.guideId, title: "Guide", outdated: true })
      expect(outdated.body.target.revision).toBe(revision)

      // Reopening counts it again; deleting it, open, uncounts it and takes its reply along.
      const reopened = yield* update(s, s.reviewer, commentId, { resolved: false })
      expect(reopened.body.status).toBe("open")
      expect(reopened.body.resolvedAt).toBeUndefined()
      expect(reopened.body.resolvedBy).toBeUndefined()
      expect(yield* openCount(s)).toBe(1)
      const removed = yield* call("DELETE", `${s.comments}/${commentId}`, { token: s.reviewer.token })
      expect(removed.status).toBe(204)
      expect(yield* openCount(s)).toBe(0)
      expect((yield* read(s, s.reviewer, commentId)).status).toBe(404)
      expect((yield* call("GET", `${s.comments}/${commentId}/replies/${replyId}`, { token: s.reviewer.token })).status).toBe(404)
    }))

  it.effect("the space counter follows posting, resolving, reopening and deleting; replies counts live replies", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const a = yield* remark(s, s.commenter, "One")
      const b = yield* remark(s, s.commenter, "Two")
      expect(yield* openCount(s)).toBe(2)
      yield* update(s, s.commenter, a, { resolved: true })
      expect(yield* openCount(s)).toBe(1)
      // Deleting a resolved comment leaves the count as it is.
      expect((yield* call("DELETE", `${s.comments}/${a}`, { token: s.commenter.token })).status).toBe(204)
      expect(yield* openCount(s)).toBe(1)
      const replies = `${s.comments}/${b}/replies`
      const first = yield* call("POST", replies, { token: s.reviewer.token, body: { body: { markdown: "r1" } } })
      yield* call("POST", replies, { token: s.commenter.token, body: { body: { markdown: "r2" } } })
      yield* call("POST", replies, { token: s.reviewer.token, body: { body: { markdown: "r3" } } })
      expect((yield* read(s, s.admin, b)).body).toMatchObject({
        replies: 3,
        repliers: expect.arrayContaining([
          expect.objectContaining({ user: expect.objectContaining({ id: s.reviewer.id }), count: 2 }),
          expect.objectContaining({ user: expect.objectContaining({ id: s.commenter.id }), count: 1 })
        ])
      })
      expect((yield* call("DELETE", `${replies}/${first.body.id}`, { token: s.reviewer.token })).status).toBe(204)
      expect((yield* read(s, s.admin, b)).body.replies).toBe(2)
      // Replies have no status: they leave the space's count alone.
      expect(yield* openCount(s)).toBe(1)
    }))

  it.effect("a comment on a block keeps its preview and is outdated once the block's text changes", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const [firstKey, secondKey] = (yield* blockKeys(s, s.guideId)) as [string, string]
      // Without `page`, the block's page is looked up.
      const onFirst = yield* post(s, s.reviewer, { node: firstKey, body: { markdown: "Too short." } })
      expect(onFirst.status).toBe(201)
      expect(onFirst.body.target).toMatchObject({
        page: { id: s.guideId, outdated: false },
        node: { id: firstKey, preview: "First paragraph." }
      })
      const onSecond = yield* post(s, s.reviewer, { page: s.guideId, node: secondKey, body: { markdown: "Fine." } })
      expect(onSecond.body.target.node).toEqual({ id: secondKey, preview: "Second paragraph." })
      // A block of another page is not one of this page.
      expect((yield* post(s, s.reviewer, { page: s.otherId, node: firstKey, body: { markdown: "x" } })).status).toBe(400)

      yield* call("POST", `${s.crPath}/content`, {
        token: s.author.token,
        body: {
          changes: [{
            operation: "update_page",
            page: s.guideId,
            document: { markdown: "First paragraph, longer.\n\nSecond paragraph.\n" }
          }]
        }
      })
      expect((yield* read(s, s.reviewer, onFirst.body.id)).body.target).toMatchObject({
        page: { id: s.guideId, outdated: true },
        node: { id: firstKey, preview: "First paragraph." }
      })
      expect((yield* read(s, s.reviewer, onSecond.body.id)).body.target.page.outdated).toBe(false)
    }))

  it.effect("bodies: 1 to 20,000 characters, not blank, markdown or a document; read back in either format", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const status = (body: unknown) => Effect.map(post(s, s.commenter, body), (a) => a.status)
      expect(yield* status({ body: { markdown: chars(20_000) } })).toBe(201)
      expect(yield* status({ body: { markdown: chars(20_001) } })).toBe(400)
      expect(yield* status({ body: { markdown: "x" } })).toBe(201)
      expect(yield* status({ body: { markdown: "" } })).toBe(400)
      expect(yield* status({ body: { markdown: " \n\t " } })).toBe(400)
      expect(yield* status({ body: {} })).toBe(400)
      expect(yield* status({})).toBe(400)
      expect(yield* status({ body: { markdown: "x", document: paragraphDocument("y") } })).toBe(400)
      expect(yield* status({ page: "no-such-page", body: { markdown: "x" } })).toBe(400)
      expect(yield* status({ node: "no-such-block", body: { markdown: "x" } })).toBe(400)

      const fromDocument = yield* post(s, s.commenter, { body: { document: paragraphDocument("Written as a document.") } })
      expect(fromDocument.status).toBe(201)
      expect(fromDocument.body.body).toEqual({ markdown: "Written as a document." })
      const asDocument = yield* read(s, s.commenter, fromDocument.body.id, "?format=document")
      expect(asDocument.body.body.document).toMatchObject({ object: "document", nodes: [{ type: "paragraph" }] })
      expect(JSON.stringify(asDocument.body.body.document)).toContain("Written as a document.")
      expect((yield* read(s, s.commenter, fromDocument.body.id, "?format=markdown")).body.body).toEqual({
        markdown: "Written as a document."
      })

      // Editing takes the same limits; a refused edit changes nothing.
      const id = fromDocument.body.id as string
      expect((yield* update(s, s.commenter, id, { body: { markdown: chars(20_001) } })).status).toBe(400)
      expect((yield* update(s, s.commenter, id, { body: { markdown: "   " } })).status).toBe(400)
      expect((yield* read(s, s.commenter, id)).body).toMatchObject({ body: { markdown: "Written as a document." } })
      expect((yield* read(s, s.commenter, id)).body.editedAt).toBeUndefined()

      // Replies take the same bodies.
      const replies = `${s.comments}/${id}/replies`
      expect((yield* call("POST", replies, { token: s.commenter.token, body: { body: { markdown: chars(20_001) } } })).status).toBe(400)
      expect((yield* call("POST", replies, { token: s.commenter.token, body: { body: { markdown: "  " } } })).status).toBe(400)
      const documentReply = yield* call("POST", `${replies}?format=document`, {
        token: s.commenter.token,
        body: { body: { document: paragraphDocument("A reply.") } }
      })
      expect(documentReply.status).toBe(201)
      expect(documentReply.body.body.document).toMatchObject({ object: "document", nodes: [{ type: "paragraph" }] })
      expect((yield* call("GET", `${replies}/${documentReply.body.id}`, { token: s.reader.token })).body.body).toEqual({
        markdown: "A reply."
      })
    }))

  it.effect("format is markdown or document: anything else is 400", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.commenter, "Hello")
      const reply = yield* call("POST", `${s.comments}/${id}/replies`, { token: s.commenter.token, body: { body: { markdown: "Hi" } } })
      for (
        const path of [
          `${s.comments}?format=html`,
          `${s.comments}/${id}?format=html`,
          `${s.comments}/${id}/replies?format=html`,
          `${s.comments}/${id}/replies/${reply.body.id}?format=text`
        ]
      ) {
        const answer = yield* call("GET", path, { token: s.commenter.token })
        expect([path, answer.status]).toEqual([path, 400])
      }
      const posted = yield* call("POST", `${s.comments}/${id}/replies?format=html`, {
        token: s.commenter.token,
        body: { body: { markdown: "Hi" } }
      })
      expect(posted.status).toBe(400)
      expect((yield* list(s, s.commenter, "?format=document")).body.items[0].body.document.object).toBe("document")
    }))

  it.effect("reactions: at most 20 a list, one emoji each, normalized, idempotent; an emoji in both lists ends removed", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.reviewer, "React to me")
      const emoji = (n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x1f600 + i))
      const twenty = yield* update(s, s.commenter, id, { addedReactions: emoji(20) })
      expect(twenty.status).toBe(200)
      expect(twenty.body.reactions).toHaveLength(20)
      expect((yield* update(s, s.commenter, id, { addedReactions: emoji(21) })).status).toBe(400)
      expect((yield* update(s, s.commenter, id, { removedReactions: emoji(21) })).status).toBe(400)
      expect((yield* update(s, s.commenter, id, { removedReactions: emoji(20) })).body.reactions).toEqual([])
      for (const bad of ["thumbsup", "", "a", "1f44d1f44d", "👍👍"]) {
        const answer = yield* update(s, s.commenter, id, { addedReactions: [bad] })
        expect([bad, answer.status]).toEqual([bad, 400])
      }

      const once = yield* update(s, s.commenter, id, { addedReactions: ["1f44d", "👍", "U+1F389"] })
      // Added in one update, at one instant: their order is storage's, not the list's.
      expect(once.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count]).sort()).toEqual([["🎉", 1], ["👍", 1]])
      const again = yield* update(s, s.commenter, id, { addedReactions: ["👍"] })
      expect(again.body.reactions).toEqual(once.body.reactions)
      // Removing one that is not there is no change; one in both lists ends up removed.
      expect((yield* update(s, s.commenter, id, { removedReactions: ["🚀"] })).body.reactions).toEqual(once.body.reactions)
      const both = yield* update(s, s.commenter, id, { addedReactions: ["👍", "🚀"], removedReactions: ["👍", "1f680"] })
      expect(both.body.reactions.map((r: { emoji: string }) => r.emoji)).toEqual(["🎉"])
      // Each user changes only their own.
      yield* update(s, s.reviewer, id, { addedReactions: ["🎉"] })
      const others = yield* update(s, s.commenter, id, { removedReactions: ["🎉"] })
      expect(others.body.reactions).toMatchObject([{ emoji: "🎉", count: 1, users: [{ user: { id: s.reviewer.id } }] }])

      // Reactions never move editedAt; a body that changes does, the same body again does not.
      expect(others.body.editedAt).toBeUndefined()
      const edited = yield* update(s, s.reviewer, id, { body: { markdown: "React to me, please" } })
      expect(edited.body.editedAt).toEqual(expect.any(String))
      yield* Effect.sleep("5 millis")
      expect((yield* update(s, s.reviewer, id, { body: { markdown: "React to me, please" } })).body.editedAt).toBe(edited.body.editedAt)
      expect((yield* update(s, s.commenter, id, { addedReactions: ["❤️"] })).body.editedAt).toBe(edited.body.editedAt)

      // Replies: the same rules.
      const reply = yield* call("POST", `${s.comments}/${id}/replies`, { token: s.reviewer.token, body: { body: { markdown: "Me too" } } })
      const replyPath = `${s.comments}/${id}/replies/${reply.body.id}`
      expect((yield* call("PUT", replyPath, { token: s.commenter.token, body: { addedReactions: emoji(21) } })).status).toBe(400)
      expect((yield* call("PUT", replyPath, { token: s.commenter.token, body: { addedReactions: ["nope"] } })).status).toBe(400)
      const replyReacted = yield* call("PUT", replyPath, { token: s.commenter.token, body: { addedReactions: ["1f44d", "👍"] } })
      expect(replyReacted.body.reactions).toMatchObject([{ emoji: "👍", count: 1 }])
      expect(replyReacted.body.editedAt).toBeUndefined()
      // `resolved` on a reply is checked for its type and has no effect.
      expect((yield* call("PUT", replyPath, { token: s.reviewer.token, body: { resolved: "yes" } })).status).toBe(400)
      const resolvedReply = yield* call("PUT", replyPath, {
        token: s.reviewer.token,
        body: { resolved: true, body: { markdown: "Me too!" } }
      })
      expect(resolvedReply.body).toMatchObject({ body: { markdown: "Me too!" }, editedAt: expect.any(String) })
      expect(resolvedReply.body.status).toBeUndefined()
    }))

  it.effect("lists filter by status, target page (blocks included) and authors, in either order, a page at a time", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const [firstKey] = (yield* blockKeys(s, s.guideId)) as [string]
      const general = yield* remark(s, s.reviewer, "General")
      const onGuide = yield* remark(s, s.commenter, "On the guide", { page: s.guideId })
      const onBlock = yield* remark(s, s.reviewer, "On a block", { node: firstKey })
      const onOther = yield* remark(s, s.commenter, "On the other page", { page: s.otherId })
      const resolved = yield* remark(s, s.author, "Resolved soon")
      yield* update(s, s.author, resolved, { resolved: true })
      const all = [general, onGuide, onBlock, onOther, resolved]

      const sorted = (answer: Answer) => [...ids(answer)].sort((a, b) => all.indexOf(a) - all.indexOf(b))
      const everything = yield* list(s, s.reader)
      expect(everything.body.count).toBe(5)
      expect(sorted(everything)).toEqual(all)
      // Newest first by default; asc is its reverse.
      const postedAt = (answer: Answer) => answer.body.items.map((c: { postedAt: string }) => Date.parse(c.postedAt)) as Array<number>
      expect(postedAt(everything)).toEqual([...postedAt(everything)].sort((a, b) => b - a))
      expect(ids(yield* list(s, s.reader, "?order=desc"))).toEqual(ids(everything))
      expect(ids(yield* list(s, s.reader, "?order=asc"))).toEqual([...ids(everything)].reverse())
      expect((yield* list(s, s.reader, "?order=sideways")).status).toBe(400)

      expect(sorted(yield* list(s, s.reader, "?status=open"))).toEqual([general, onGuide, onBlock, onOther])
      expect(ids(yield* list(s, s.reader, "?status=resolved"))).toEqual([resolved])
      expect((yield* list(s, s.reader, "?status=all")).body.count).toBe(5)
      expect((yield* list(s, s.reader, "?status=closed")).status).toBe(400)
      expect(sorted(yield* list(s, s.reader, `?targetPage=${s.guideId}`))).toEqual([onGuide, onBlock])
      expect(ids(yield* list(s, s.reader, `?targetPage=${s.otherId}`))).toEqual([onOther])
      expect((yield* list(s, s.reader, "?targetPage=no-such-page")).body).toMatchObject({ items: [], count: 0 })
      expect(sorted(yield* list(s, s.reader, `?authors=${s.reviewer.id}`))).toEqual([general, onBlock])
      expect(sorted(yield* list(s, s.reader, `?authors=${s.reviewer.id}&authors=${s.author.id}`))).toEqual([general, onBlock, resolved])
      expect(sorted(yield* list(s, s.reader, `?authors=${s.commenter.id}&status=open&targetPage=${s.guideId}`))).toEqual([onGuide])
      expect((yield* list(s, s.reader, "?authors=nobody")).body).toMatchObject({ items: [], count: 0 })

      // Keyset pages, two at a time, in both orders: every comment once, the count of all on each page.
      for (const order of ["asc", "desc"]) {
        const walked: Array<string> = []
        let page = yield* list(s, s.reader, `?order=${order}&limit=2`)
        const pages = [page]
        while (page.body.next !== undefined) {
          page = yield* list(s, s.reader, `?order=${order}&limit=2&page=${encodeURIComponent(page.body.next.page)}`)
          pages.push(page)
        }
        for (const p of pages) {
          expect(p.body.count).toBe(5)
          walked.push(...ids(p))
        }
        expect([order, pages.length, walked]).toEqual([order, 3, ids(yield* list(s, s.reader, `?order=${order}`))])
      }
      // A token of one list is not a token of another.
      const firstPage = yield* list(s, s.reader, "?order=asc&limit=2")
      expect((yield* list(s, s.reader, `?order=desc&limit=2&page=${encodeURIComponent(firstPage.body.next.page)}`)).status).toBe(400)
    }))

  it.effect("replies come oldest first, a page at a time", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.reviewer, "Thread")
      const replies = `${s.comments}/${id}/replies`
      const posted: Array<string> = []
      for (const [i, user] of [s.commenter, s.author, s.reviewer, s.commenter].entries()) {
        posted.push((yield* call("POST", replies, { token: user.token, body: { body: { markdown: `Reply ${i}` } } })).body.id)
        yield* Effect.sleep("2 millis")
      }
      const all = yield* call("GET", replies, { token: s.reader.token })
      expect(all.body.count).toBe(4)
      expect(ids(all)).toEqual(posted)
      expect(all.body.items.map((r: { body: { markdown: string } }) => r.body.markdown)).toEqual([
        "Reply 0",
        "Reply 1",
        "Reply 2",
        "Reply 3"
      ])
      const first = yield* call("GET", `${replies}?limit=3`, { token: s.reader.token })
      expect(ids(first)).toEqual(posted.slice(0, 3))
      const rest = yield* call("GET", `${replies}?limit=3&page=${encodeURIComponent(first.body.next.page)}`, { token: s.reader.token })
      expect([ids(rest), rest.body.next]).toEqual([posted.slice(3), undefined])
      const asDocuments = yield* call("GET", `${replies}?format=document`, { token: s.reader.token })
      expect(asDocuments.body.items[0].body.document.object).toBe("document")
      // A reply is found under its own comment only.
      const other = yield* remark(s, s.reviewer, "Another thread")
      expect((yield* call("GET", `${s.comments}/${other}/replies/${posted[0]}`, { token: s.reader.token })).status).toBe(404)
      expect((yield* call("GET", `${s.comments}/no-such-comment/replies`, { token: s.reader.token })).status).toBe(404)
    }))

  it.effect("a merged or archived change request takes no new comments or replies, and stays readable", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.reviewer, "Before the merge")
      yield* call("POST", `${s.comments}/${id}/replies`, { token: s.author.token, body: { body: { markdown: "Noted" } } })
      expect((yield* call("POST", `${s.crPath}/merge`, { token: s.reviewer.token })).body.result).toBe("merge")
      expect((yield* post(s, s.reviewer, { body: { markdown: "After" } })).status).toBe(409)
      const reply = yield* call("POST", `${s.comments}/${id}/replies`, { token: s.author.token, body: { body: { markdown: "After" } } })
      expect(reply.status).toBe(409)
      expect(reply.body.error).toEqual({ code: 409, message: expect.stringContaining("merged") })
      const readBack = yield* read(s, s.reader, id)
      expect(readBack.body).toMatchObject({ id, replies: 1, permissions: { view: true, reply: false } })
      expect(ids(yield* list(s, s.reader))).toEqual([id])
      expect((yield* call("GET", `${s.comments}/${id}/replies`, { token: s.reader.token })).body.count).toBe(1)

      const archived = yield* setup
      const kept = yield* remark(archived, archived.reviewer, "Before archiving")
      expect((yield* call("PATCH", archived.crPath, { token: archived.author.token, body: { status: "archived" } })).status).toBe(200)
      expect((yield* post(archived, archived.reviewer, { body: { markdown: "After" } })).status).toBe(409)
      const archivedReply = yield* call("POST", `${archived.comments}/${kept}/replies`, {
        token: archived.author.token,
        body: { body: { markdown: "After" } }
      })
      expect(archivedReply.status).toBe(409)
      expect((yield* read(archived, archived.reader, kept)).status).toBe(200)
    }))

  it.effect("read: role read and up; guests and other organizations get 404; no token 401", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.reviewer, "Visible")
      const asReader = yield* read(s, s.reader, id)
      expect(asReader.status).toBe(200)
      expect(asReader.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false })
      expect((yield* list(s, s.reader)).body.count).toBe(1)
      for (const user of [s.guest, s.outsider]) {
        expect((yield* read(s, user, id)).status).toBe(404)
        expect((yield* list(s, user)).status).toBe(404)
        expect((yield* post(s, user, { body: { markdown: "Hi" } })).status).toBe(404)
        expect((yield* update(s, user, id, { addedReactions: ["👍"] })).status).toBe(404)
      }
      const anonymous = yield* call("GET", `${s.comments}/${id}`)
      expect(anonymous.status).toBe(401)
      expect((yield* update(s, undefined, id, { resolved: true })).status).toBe(401)
      expect((yield* read(s, s.reader, id)).body.status).toBe("open")
    }))

  it.effect("post, reply and react: role comment and up; a read member gets 403", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.commenter, "A commenter may post")
      expect((yield* post(s, s.reader, { body: { markdown: "No" } })).status).toBe(403)
      expect((yield* call("POST", `${s.comments}/${id}/replies`, { token: s.reader.token, body: { body: { markdown: "No" } } })).status)
        .toBe(
          403
        )
      expect((yield* update(s, s.reader, id, { addedReactions: ["👍"] })).status).toBe(403)
      const reply = yield* call("POST", `${s.comments}/${id}/replies`, { token: s.commenter.token, body: { body: { markdown: "Yes" } } })
      expect(reply.status).toBe(201)
      const replyReaction = yield* call("PUT", `${s.comments}/${id}/replies/${reply.body.id}`, {
        token: s.reader.token,
        body: { addedReactions: ["👍"] }
      })
      expect(replyReaction.status).toBe(403)
      expect((yield* read(s, s.reader, id)).body).toMatchObject({ reactions: [], replies: 1 })
      expect((yield* list(s, s.reader)).body.count).toBe(1)
    }))

  it.effect("edit the body: its author or an admin; another commenter gets 403", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.commenter, "Mine")
      expect((yield* update(s, s.reviewer, id, { body: { markdown: "Theirs" } })).status).toBe(403)
      expect((yield* update(s, s.author, id, { body: { markdown: "Theirs" } })).status).toBe(403)
      expect((yield* update(s, s.commenter, id, { body: { markdown: "Still mine" } })).body.body).toEqual({ markdown: "Still mine" })
      expect((yield* update(s, s.admin, id, { body: { markdown: "Moderated" } })).body.body).toEqual({ markdown: "Moderated" })
      const reply = yield* call("POST", `${s.comments}/${id}/replies`, { token: s.reviewer.token, body: { body: { markdown: "Reply" } } })
      const replyPath = `${s.comments}/${id}/replies/${reply.body.id}`
      expect((yield* call("PUT", replyPath, { token: s.commenter.token, body: { body: { markdown: "Changed" } } })).status).toBe(403)
      expect((yield* call("PUT", replyPath, { token: s.reviewer.token, body: { body: { markdown: "Changed" } } })).status).toBe(200)
      expect((yield* call("PUT", replyPath, { token: s.admin.token, body: { body: { markdown: "By admin" } } })).status).toBe(200)
      expect((yield* call("GET", replyPath, { token: s.reader.token })).body.body).toEqual({ markdown: "By admin" })
      expect((yield* read(s, s.commenter, id)).body.permissions).toEqual({ view: true, edit: true, reply: true, delete: true })
      expect((yield* read(s, s.reviewer, id)).body.permissions).toEqual({ view: true, edit: false, reply: true, delete: false })
    }))

  it.effect("resolve or reopen: its author, or role review and up", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const byReviewer = yield* remark(s, s.reviewer, "Reviewer's")
      // The change request's author is an editor, below review: not this comment's to resolve.
      expect((yield* update(s, s.author, byReviewer, { resolved: true })).status).toBe(403)
      expect((yield* update(s, s.commenter, byReviewer, { resolved: true })).status).toBe(403)
      expect(yield* openCount(s)).toBe(1)
      const byCommenter = yield* remark(s, s.commenter, "Commenter's")
      expect((yield* update(s, s.commenter, byCommenter, { resolved: true })).body.status).toBe("resolved")
      expect((yield* update(s, s.commenter, byCommenter, { resolved: false })).body.status).toBe("open")
      expect((yield* update(s, s.reviewer, byCommenter, { resolved: true })).body).toMatchObject({
        status: "resolved",
        resolvedBy: { id: s.reviewer.id }
      })
      expect((yield* update(s, s.author, byCommenter, { resolved: false })).status).toBe(403)
      expect(yield* openCount(s)).toBe(1)
    }))

  it.effect("delete: its author or an admin", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.commenter, "Delete me")
      expect((yield* call("DELETE", `${s.comments}/${id}`, { token: s.reviewer.token })).status).toBe(403)
      expect((yield* call("DELETE", `${s.comments}/${id}`, { token: s.reader.token })).status).toBe(403)
      expect((yield* read(s, s.reader, id)).status).toBe(200)
      expect((yield* call("DELETE", `${s.comments}/${id}`, { token: s.commenter.token })).status).toBe(204)
      const other = yield* remark(s, s.reviewer, "Moderate me")
      const reply = yield* call("POST", `${s.comments}/${other}/replies`, { token: s.commenter.token, body: { body: { markdown: "R" } } })
      const replyPath = `${s.comments}/${other}/replies/${reply.body.id}`
      expect((yield* call("DELETE", replyPath, { token: s.reviewer.token })).status).toBe(403)
      expect((yield* call("DELETE", replyPath, { token: s.admin.token })).status).toBe(204)
      expect((yield* call("DELETE", `${s.comments}/${other}`, { token: s.admin.token })).status).toBe(204)
      expect((yield* list(s, s.reader)).body.count).toBe(0)
      expect(yield* openCount(s)).toBe(0)
      expect((yield* call("DELETE", `${s.comments}/${other}`, { token: s.admin.token })).status).toBe(404)
    }))

  it.effect("a PUT with one field the caller may not set is 403 as a whole and changes nothing", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const id = yield* remark(s, s.reviewer, "Original")
      const before = yield* read(s, s.reviewer, id)
      // The commenter may react, but neither resolve nor edit someone else's comment.
      const mixed = yield* update(s, s.commenter, id, { addedReactions: ["👍"], resolved: true })
      expect(mixed.status).toBe(403)
      expect((yield* update(s, s.commenter, id, { addedReactions: ["👍"], body: { markdown: "Changed" } })).status).toBe(403)
      expect((yield* read(s, s.reviewer, id)).body).toEqual(before.body)
      expect(yield* openCount(s)).toBe(1)
    }))
})
