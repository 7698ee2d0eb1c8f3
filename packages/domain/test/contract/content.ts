import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option } from "effect"
import {
  BlobStore,
  branchOf,
  type ChangeRequest,
  ChangeRequestContent,
  ChangeRequestMerges,
  ChangeRequests,
  ChangeRequestId,
  ChangeRequestRepository,
  Content,
  ContentFiles,
  type ContentPage,
  LiveEdits,
  nodeOf,
  PageId,
  RevisionContentRepository,
  RevisionContents,
  RevisionId,
  Search,
  SpaceId,
  SpaceRepository,
  SpaceLifecycle,
  Spaces,
  type StoragePorts
} from "../../src/index.js"
import { adminOfNewOrganization, adminWithNewSpace, at, type Services, uniqueId } from "./fixtures.js"

const byIdOrder = (a: ContentPage, b: ContentPage) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

const page = (fields: Partial<ContentPage> = {}): ContentPage => ({
  id: PageId.make(uniqueId("p")),
  kind: "document",
  title: "Page",
  slug: "page",
  parentId: null,
  position: "V",
  markdown: "Hello",
  hidden: false,
  noIndex: false,
  noRobotsIndex: false,
  createdAt: at(1),
  updatedAt: at(1),
  ...fields
})

const empty = { pages: [], deletedPages: [], files: [], deletedFiles: [] }

/** The content slice of the storage contract. */
export const contentContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("space content", (it) => {
    it.effect("revision content: each revision is its parent plus a delta; old revisions keep theirs", () =>
      Effect.gen(function*() {
        const contents = yield* RevisionContentRepository
        const space = SpaceId.make(uniqueId("s"))
        const [r1, r2, r3] = [RevisionId.make(uniqueId("r")), RevisionId.make(uniqueId("r")), RevisionId.make(uniqueId("r"))]
        const a = page({
          title: "A",
          slug: "a",
          emoji: "📘",
          layout: { cover: true, coverSize: "hero" },
          git: { oid: "abc", path: "a.md" }
        })
        const b = page({ title: "B", slug: "b", parentId: a.id, description: "about b" })
        yield* contents.save(r1, space, null, { ...empty, pages: [a, b] })
        const b2 = { ...b, title: "B2", updatedAt: at(2) }
        yield* contents.save(r2, space, r1, { ...empty, pages: [b2] })
        yield* contents.save(r3, space, r2, { ...empty, deletedPages: [a.id] })
        expect(yield* contents.load(r1)).toEqual({ pages: new Map([[a.id, a], [b.id, b]]), files: new Map() })
        expect((yield* contents.load(r2)).pages).toEqual(new Map([[a.id, a], [b.id, b2]]))
        expect((yield* contents.load(r3)).pages).toEqual(new Map([[b.id, b2]]))
        expect(Option.getOrThrow(yield* contents.loadPage(r2, b.id))).toEqual(b2)
        expect(yield* contents.loadPage(r3, a.id)).toEqual(Option.none())
        expect(yield* contents.load(RevisionId.make(uniqueId("r")))).toEqual({ pages: new Map(), files: new Map() })
        const file = {
          id: uniqueId("f") as never,
          name: "a.png",
          contentType: "image/png",
          size: 3,
          dimensions: { width: 1, height: 2 },
          blobKey: "k",
          createdAt: at(1)
        }
        yield* contents.save(RevisionId.make(uniqueId("r")), space, r3, { ...empty, files: [file] })
      }))

    it.effect("blobs: kept once per key, read back byte for byte", () =>
      Effect.gen(function*() {
        const blobs = yield* BlobStore
        const key = uniqueId("blob")
        const bytes = new Uint8Array([0, 1, 2, 255])
        yield* blobs.put(key, bytes)
        yield* blobs.put(key, bytes)
        expect(Option.getOrThrow(yield* blobs.get(key))).toEqual(bytes)
        expect(yield* blobs.get(uniqueId("missing"))).toEqual(Option.none())
      }))

    it.effect("change requests: numbered per space, listed newest first, counted per status", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestRepository
        const space = SpaceId.make(uniqueId("s"))
        const other = SpaceId.make(uniqueId("s"))
        const revision = RevisionId.make(uniqueId("r"))
        const cr = (number: number, status: ChangeRequest["status"], minute: number, spaceId = space): ChangeRequest => ({
          id: ChangeRequestId.make(uniqueId("cr")),
          spaceId,
          number,
          status,
          subject: `CR ${number}`,
          initialRevisionId: revision,
          baseRevisionId: revision,
          revisionId: revision,
          createdBy: "someone" as ChangeRequest["createdBy"],
          createdAt: at(minute),
          updatedAt: at(minute)
        })
        const one = cr(1, "draft", 1)
        const two = cr(2, "open", 2)
        const three = cr(3, "open", 3)
        for (const c of [one, two, three, cr(1, "draft", 1, other)]) yield* repo.insert(c)
        const clash = yield* Effect.flip(repo.insert(cr(2, "draft", 4)))
        expect(clash.reason).toBe("Change request number 2 was just taken by another one: try again")
        expect(yield* repo.lastNumber(space)).toBe(3)
        expect(yield* repo.lastNumber(SpaceId.make(uniqueId("s")))).toBe(0)
        expect(Option.getOrThrow(yield* repo.findByNumber(space, 2))).toEqual(two)
        expect(Option.getOrThrow(yield* repo.findById(three.id))).toEqual(three)
        const all = yield* repo.list(space, {}, { limit: 2, after: Option.none() })
        expect(all.items.map((c) => c.number)).toEqual([3, 2])
        expect(all.count).toBe(3)
        const rest = yield* repo.list(space, {}, { limit: 2, after: all.next })
        expect(rest.items.map((c) => c.number)).toEqual([1])
        expect((yield* repo.list(space, { status: "open" }, { limit: 10, after: Option.none() })).count).toBe(2)
        yield* repo.update({ ...one, status: "merged", mergedAt: at(9) })
        expect(Option.getOrThrow(yield* repo.findById(one.id))).toMatchObject({ status: "merged", mergedAt: at(9) })
        const counts = yield* repo.countsFor([space, other, SpaceId.make(uniqueId("s"))])
        expect(counts.get(space)).toEqual({ total: 3, open: 2, draft: 0 })
        expect(counts.get(other)).toEqual({ total: 1, open: 0, draft: 1 })
        expect(counts.size).toBe(2)
      }))

    it.effect("live edits: a batch makes one revision; markdown sets fields; the old revision stays readable", () =>
      Effect.gen(function*() {
        const spaces = yield* Spaces
        const lifecycle = yield* SpaceLifecycle
        const content = yield* Content
        const liveEdits = yield* LiveEdits
        const { organization, run } = yield* adminOfNewOrganization
        const { space } = yield* run(spaces.create(organization.id, { title: "Docs" }))
        const first = yield* run(liveEdits.editLive(space.id, {
          changes: [
            {
              operation: "insert_page",
              document: { markdown: "---\ndescription: Start here\nhidden: true\n---\n# Getting started\n\nWelcome." }
            },
            { operation: "insert_page", title: "API", slug: "api" }
          ]
        }))
        const pages = [...first.content.pages.values()]
        const start = pages.find((p) => p.slug === "getting-started")!
        expect(start).toMatchObject({ title: "Getting started", description: "Start here", hidden: true, markdown: "Welcome." })
        const api = pages.find((p) => p.slug === "api")!
        const second = yield* run(liveEdits.editLive(space.id, {
          changes: [
            { operation: "insert_page", title: "Reference", into: api.id },
            { operation: "update_page", page: start.id, title: "Start" }
          ]
        }))
        expect(second.revision.parents).toEqual([first.revision.id])
        const byPath = yield* run(content.pageByPath(space.id, "api/reference"))
        expect(byPath.page.title).toBe("Reference")
        const old = yield* run(content.revisionOf(space.id, first.revision.id))
        expect([...old.content.pages.values()].find((p) => p.id === start.id)?.title).toBe("Getting started")
        expect((yield* run(spaces.get(space.id))).space.revisionId).toBe(second.revision.id)

        const clash = yield* Effect.either(run(liveEdits.editLive(space.id, {
          changes: [{ operation: "insert_page", title: "Other" }, { operation: "insert_page", title: "API", slug: "api" }]
        })))
        expect(failureTag(clash)).toBe("Conflict")
        const cycle = yield* Effect.either(run(liveEdits.editLive(space.id, {
          changes: [{ operation: "update_page", page: api.id, into: byPath.page.id }]
        })))
        expect(failureTag(cycle)).toBe("InvalidInput")
        const unchanged = yield* run(content.current(space.id))
        expect(unchanged.revision.id).toBe(second.revision.id)
        expect(unchanged.content.pages.size).toBe(3)

        const copy = yield* run(lifecycle.duplicate(space.id))
        const copied = yield* run(content.current(copy.space.id))
        expect([...copied.content.pages.values()].map((p) => p.title).sort()).toEqual(["API", "Reference", "Start"])
        yield* run(liveEdits.editLive(space.id, { changes: [{ operation: "delete_page", page: api.id }] }))
        expect((yield* run(content.current(space.id))).content.pages.size).toBe(1)

        yield* run(spaces.update(space.id, { editMode: "locked" }))
        const locked = yield* Effect.either(run(liveEdits.editLive(space.id, { changes: [{ operation: "insert_page", title: "X" }] })))
        expect(failureTag(locked)).toBe("Conflict")
      }))

    it.effect("one page reads as its branch: its path and every page below it, at any depth, as the whole revision gives them", () =>
      Effect.gen(function*() {
        const content = yield* Content
        const liveEdits = yield* LiveEdits
        const contents = yield* RevisionContentRepository
        const { run, space } = yield* adminWithNewSpace("Branches")
        // Each level in a batch of its own: a change places a page under one the revision holds.
        const ids = new Map<string, PageId>()
        const id = (slug: string) => ids.get(slug)!
        for (const level of [[["a", null], ["f", null]], [["b", "a"]], [["c", "b"], ["e", "b"]], [["d", "c"]]] as const) {
          const edited = yield* run(liveEdits.editLive(space.id, {
            changes: level.map(([slug, parent]) => ({
              operation: "insert_page" as const,
              title: slug.toUpperCase(),
              slug,
              into: parent === null ? null : id(parent)
            }))
          }))
          for (const p of edited.content.pages.values()) ids.set(p.slug, p.id)
        }
        const b = yield* run(content.page(space.id, id("b")))
        expect(b.path).toBe("a/b")
        expect(b.pages.map((n) => [n.path, n.pages.map((m) => m.path)])).toEqual([["a/b/c", ["a/b/c/d"]], ["a/b/e", []]])
        // Moving C under F and deleting E: the branches follow, in a revision stored as a delta.
        const moved = yield* run(liveEdits.editLive(space.id, {
          changes: [{ operation: "update_page", page: id("c"), into: id("f") }, { operation: "delete_page", page: id("e") }]
        }))
        expect((yield* run(content.page(space.id, id("b")))).pages).toEqual([])
        expect((yield* run(content.page(space.id, id("d")))).path).toBe("f/c/d")
        expect(failureTag(yield* Effect.either(run(content.page(space.id, id("e")))))).toBe("NotFound")
        expect(failureTag(yield* Effect.either(run(content.page(space.id, PageId.make(uniqueId("p"))))))).toBe("NotFound")
        const whole = yield* run(content.current(space.id))
        for (const pageId of [...moved.content.pages.keys(), id("e")]) {
          const branch = yield* contents.loadBranch(whole.revision.id, pageId)
          const expected = branchOf(whole.content, pageId)
          expect([...branch].sort(byIdOrder)).toEqual([...expected].sort(byIdOrder))
          if (expected.length > 0) expect(yield* run(content.page(space.id, pageId))).toEqual(nodeOf(whole.content, pageId))
        }
      }))

    it.effect("what an edit keeps in memory is what the storage holds: live edits, change request edits, updates and merges", () =>
      Effect.gen(function*() {
        const liveEdits = yield* LiveEdits
        const changeRequests = yield* ChangeRequests
        const changeRequestContent = yield* ChangeRequestContent
        const merges = yield* ChangeRequestMerges
        const kept = yield* RevisionContents
        const stored = yield* RevisionContentRepository
        const { run, space } = yield* adminWithNewSpace("Kept")
        const first = yield* run(liveEdits.editLive(space.id, {
          changes: [
            {
              operation: "insert_page",
              ref: "guide",
              title: "Guide",
              emoji: "📘",
              description: "How to",
              document: { markdown: "Read [more](./faq)." }
            },
            {
              operation: "insert_page",
              ref: "faq",
              title: "FAQ",
              hidden: true,
              document: { markdown: "---\ndescription: Asked\n---\nAnswers." }
            },
            { operation: "insert_page", kind: "link", title: "Home", href: "https://example.com" }
          ]
        }))
        const id = (title: string) => [...first.content.pages.values()].find((p) => p.title === title)!.id
        const cr = yield* run(changeRequests.create(space.id, { subject: "Edit the guide" }))
        const crEdit = yield* run(changeRequestContent.edit(space.id, cr.changeRequest.id, {
          changes: [
            { operation: "update_page", page: id("Guide"), emoji: null, title: "The guide" },
            {
              operation: "insert_page",
              title: "New",
              into: id("Guide"),
              document: { markdown: "See [the FAQ](/pages/" + id("FAQ") + ")." }
            }
          ]
        }))
        const live = yield* run(liveEdits.editLive(space.id, {
          changes: [{ operation: "update_page", page: id("FAQ"), document: { markdown: "Other answers." } }, {
            operation: "delete_page",
            page: id("Home")
          }]
        }))
        const updated = yield* run(merges.updateFromSpace(space.id, cr.changeRequest.id))
        const merged = yield* run(merges.merge(space.id, cr.changeRequest.id))
        expect([updated.result, merged.result]).toEqual(["update", "merge"])
        // The edits' revisions come from memory: the very content each edit made.
        for (const edited of [first, crEdit, live]) expect(yield* kept.load(edited.revision.id)).toBe(edited.content)
        for (const revisionId of [first.revision.id, crEdit.revision.id, live.revision.id, updated.revision, merged.revision]) {
          const fromStorage = yield* stored.load(revisionId)
          expect(fromStorage.pages.size).toBeGreaterThan(0)
          expect(yield* kept.load(revisionId)).toStrictEqual(fromStorage)
        }
      }))

    it.effect("concurrent changes to one space all land, and a settings change read before an edit does not undo it", () =>
      Effect.gen(function*() {
        const spaces = yield* Spaces
        const content = yield* Content
        const liveEdits = yield* LiveEdits
        const changeRequests = yield* ChangeRequests
        const changeRequestContent = yield* ChangeRequestContent
        const merges = yield* ChangeRequestMerges
        const search = yield* Search
        const { run, space } = yield* adminWithNewSpace("Busy")
        const cr = yield* run(changeRequests.create(space.id, { subject: "Draft" }))
        yield* run(
          changeRequestContent.edit(space.id, cr.changeRequest.id, { changes: [{ operation: "insert_page", title: "Merged zephyr" }] })
        )
        const edits = Array.from(
          { length: 6 },
          (_, i) => run(liveEdits.editLive(space.id, { changes: [{ operation: "insert_page", title: `Zephyr ${i}` }] }))
        )
        yield* Effect.all([
          ...edits,
          run(merges.merge(space.id, cr.changeRequest.id)),
          run(spaces.update(space.id, { title: "Busier" }))
        ], { concurrency: "unbounded", discard: true })
        const current = yield* run(content.current(space.id))
        expect([...current.content.pages.values()].map((p) => p.title).sort()).toEqual([
          "Merged zephyr",
          "Zephyr 0",
          "Zephyr 1",
          "Zephyr 2",
          "Zephyr 3",
          "Zephyr 4",
          "Zephyr 5"
        ])
        const after = (yield* run(spaces.get(space.id))).space
        expect([after.title, after.revisionId]).toEqual(["Busier", current.revision.id])
        const found = yield* run(search.inSpace(space.id, { query: "zephyr" }, { limit: 50, after: Option.none() }))
        expect(found.count).toBe(7)
        // The repository itself: `update` never moves the revision.
        const repository = yield* SpaceRepository
        yield* repository.update({ ...space, title: "Stale", revisionId: space.revisionId })
        expect(Option.map(yield* repository.findById(space.id), (s) => [s.title, s.revisionId])).toEqual(
          Option.some(["Stale", current.revision.id])
        )
      }))

    it.effect("files: stored behind the blob store with size, type and image dimensions", () =>
      Effect.gen(function*() {
        const spaces = yield* Spaces
        const liveEdits = yield* LiveEdits
        const contentFiles = yield* ContentFiles
        const { organization, run } = yield* adminOfNewOrganization
        const { space } = yield* run(spaces.create(organization.id, { title: "Docs" }))
        // A 3 × 2 PNG header is enough for its dimensions.
        const png = new Uint8Array([
          0x89,
          0x50,
          0x4e,
          0x47,
          0x0d,
          0x0a,
          0x1a,
          0x0a,
          0,
          0,
          0,
          13,
          0x49,
          0x48,
          0x44,
          0x52,
          0,
          0,
          0,
          3,
          0,
          0,
          0,
          2,
          8,
          6,
          0,
          0,
          0
        ])
        const base64 = btoa(String.fromCharCode(...png))
        const edited = yield* run(
          liveEdits.editLive(space.id, {
            changes: [{ operation: "insert_files", files: [{ name: "logo.png", contentType: "image/png", base64 }] }]
          })
        )
        const file = [...edited.content.files.values()][0]!
        expect(file).toMatchObject({ name: "logo.png", contentType: "image/png", size: png.length, dimensions: { width: 3, height: 2 } })
        const downloaded = yield* run(contentFiles.download(space.id, file.id))
        expect(downloaded.bytes).toEqual(png)
        const big = yield* Effect.either(run(liveEdits.editLive(space.id, {
          changes: [{
            operation: "insert_files",
            files: [{ name: "big.bin", contentType: "application/octet-stream", base64: btoa("x".repeat(1024 * 1024 + 1)) }]
          }]
        })))
        expect(failureTag(big)).toBe("InvalidInput")
      }))
  })
