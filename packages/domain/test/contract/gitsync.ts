import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import {
  ChangeRequestContent,
  ChangeRequests,
  Comments,
  type GitSyncState,
  GitSyncRepository,
  RevisionGitReads,
  RevisionId,
  RevisionRepository,
  SiteGitSyncRepository,
  type SiteGitSyncState,
  SiteRepository,
  Sites,
  SiteSections,
  SiteSpaces,
  SpaceFactRows,
  spaceFactRowsOneByOne,
  spaceFacts,
  SpaceId,
  Spaces,
  type StoragePorts,
  UnitOfWork
} from "../../src/index.js"
import {
  adminWithNewSpace,
  at,
  countsOf,
  factRowsOf,
  gitSyncOf,
  makeOrganization,
  orderedFactRows,
  publishedOf,
  type Services,
  siteOf,
  uniqueId
} from "./fixtures.js"

/** Git Sync's storage (conventions-2.md §8): a state document per space, Git metadata per imported revision. */
export const gitsyncContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("gitsync", (it) => {
    it.effect("states: stored whole and replaced; absent fields stay absent; running ones are listed", () =>
      Effect.gen(function*() {
        const states = yield* GitSyncRepository
        const { space } = yield* adminWithNewSpace("Synced")
        const { space: other } = yield* adminWithNewSpace("Other")
        expect(yield* states.find(space.id)).toEqual(Option.none())
        const running: GitSyncState = {
          spaceId: space.id,
          repoName: "owner/repo",
          url: "https://example.com/owner/repo",
          updatedAt: at(1),
          timestamp: at(2),
          operation: { state: "running", direction: "import", startedAt: at(3), owner: "host-a:8080" }
        }
        yield* states.save(running)
        expect(yield* states.find(space.id)).toEqual(Option.some(running))
        yield* states.save({ spaceId: other.id, updatedAt: at(1) })
        expect((yield* states.running()).filter((s) => s.spaceId === space.id || s.spaceId === other.id)).toEqual([running])
        // Many spaces' states in one read: those that have one.
        const { space: none } = yield* adminWithNewSpace("Never synced")
        const many = yield* states.findMany([space.id, other.id, none.id])
        expect([...many].sort((a, b) => (a.spaceId < b.spaceId ? -1 : 1))).toEqual(
          [running, { spaceId: other.id, updatedAt: at(1) }].sort((a, b) => (a.spaceId < b.spaceId ? -1 : 1))
        )
        expect(yield* states.findMany([])).toEqual([])
        const done: GitSyncState = {
          ...running,
          installationProvider: "github",
          operation: {
            state: "success",
            direction: "export",
            startedAt: at(3),
            endedAt: at(4),
            commit: "c0ffee",
            revision: RevisionId.make("r1")
          },
          exportedCommit: "c0ffee"
        }
        yield* states.save(done)
        expect(yield* states.find(space.id)).toEqual(Option.some(done))
        expect((yield* states.running()).some((s) => s.spaceId === space.id)).toBe(false)
        // The lock is taken inside a unit of work and released with it.
        const uow = yield* UnitOfWork
        yield* uow.transaction(Effect.zipRight(states.lock(space.id), states.save({ ...done, updatedAt: at(9) })))
        yield* uow.transaction(states.lock(space.id))
        expect(Option.getOrThrow(yield* states.find(space.id)).updatedAt).toEqual(at(9))
      }))

    it.effect("site states: stored whole and replaced, with the configuration's text and its nodes; running ones are listed", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const states = yield* SiteGitSyncRepository
        const organization = yield* makeOrganization()
        const site = siteOf(organization.id)
        const idle = siteOf(organization.id)
        yield* sites.insert(site)
        yield* sites.insert(idle)
        expect(yield* states.find(site.id)).toEqual(Option.none())
        const running: SiteGitSyncState = {
          siteId: site.id,
          repoName: "owner/docs",
          url: "https://example.com/owner/docs",
          ref: "refs/heads/main",
          projectDirectory: "",
          updatedAt: at(1),
          operation: {
            state: "running",
            direction: "import",
            stage: "content_process",
            startedAt: at(2),
            updatedAt: at(3),
            owner: "host-a:8080",
            spaces: { s1: { state: "success", direction: "import", startedAt: at(2), updatedAt: at(3), completedAt: at(3) } }
          },
          configPath: "docs.yaml",
          config: "site:\n  title: Docs # ✓ ünïcode\n  structure: []\n",
          commit: "c0ffee",
          nodes: { "space-1": { id: "ss1", spaceId: SpaceId.make("s1"), title: "Guides" }, "section-1": { id: "sc1" } }
        }
        yield* states.save(running)
        expect(yield* states.find(site.id)).toEqual(Option.some(running))
        yield* states.save({ siteId: idle.id, updatedAt: at(1), nodes: {} })
        expect((yield* states.running()).filter((s) => s.siteId === site.id || s.siteId === idle.id)).toEqual([running])
        const done: SiteGitSyncState = {
          ...running,
          operation: { ...running.operation!, state: "failure", error: "The branch refs/heads/main does not exist", spaces: {} }
        }
        const uow = yield* UnitOfWork
        yield* uow.transaction(Effect.zipRight(states.lock(site.id), states.save(done)))
        expect(yield* states.find(site.id)).toEqual(Option.some(done))
        expect((yield* states.running()).some((s) => s.siteId === site.id)).toBe(false)
      }))

    it.effect("revisions: the Git metadata of an imported revision, found by id", () =>
      Effect.gen(function*() {
        const states = yield* GitSyncRepository
        const { space } = yield* adminWithNewSpace("Imported")
        const revisionId = RevisionId.make(uniqueId("rv"))
        const git = {
          revisionId,
          spaceId: space.id,
          oid: "abc123",
          message: "Docs\n",
          createdByService: false,
          url: "https://example.com/c/abc123",
          ref: "refs/heads/main"
        }
        yield* states.saveRevision(git)
        expect(yield* states.findRevision(revisionId)).toEqual(Option.some(git))
        const { url: _url, ...withoutUrl } = git
        yield* states.saveRevision(withoutUrl)
        expect(yield* states.findRevision(revisionId)).toEqual(Option.some(withoutUrl))
        expect(yield* states.findRevision(RevisionId.make("missing"))).toEqual(Option.none())
      }))

    it.effect("what a view of spaces reads of later contexts, at once, is what each one's repository answers", () =>
      Effect.gen(function*() {
        const spaces = yield* Spaces
        const changeRequests = yield* ChangeRequests
        const changeRequestContent = yield* ChangeRequestContent
        const comments = yield* Comments
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const siteSections = yield* SiteSections
        const { organization, run, space } = yield* adminWithNewSpace("Facts")
        const made = [space.id]
        for (const title of ["Second", "Third"]) made.push((yield* run(spaces.create(organization.id, { title }))).space.id)
        const [first, second, third] = made as [SpaceId, SpaceId, SpaceId]
        // Change requests in every status on two spaces, open comments on one, a site showing two, a sync on one.
        for (const [spaceId, subject] of [[first, "A"], [first, "B"], [second, "C"]] as const) {
          yield* run(changeRequests.create(spaceId, { subject }))
        }
        yield* run(changeRequests.update(first, "2", { status: "open" }))
        const reviewed = yield* run(changeRequestContent.edit(second, "1", { changes: [{ operation: "insert_page", title: "Page" }] }))
        const page = [...reviewed.content.pages.values()][0]!
        yield* run(comments.post(second, "1", { page: page.id, body: { markdown: "One" } }))
        yield* run(comments.post(second, "1", { page: page.id, body: { markdown: "Two" } }))
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        const { section } = yield* run(siteSections.addSection(site.id, { spaceId: first, title: "Guides" }))
        yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: third, sectionId: section.section.id }))
        const state: GitSyncState = { spaceId: third, repoName: "owner/repo", updatedAt: at(5) }
        yield* (yield* GitSyncRepository).save(state)

        const asked = [first, second, third, SpaceId.make(uniqueId("s"))]
        const readRows = yield* (yield* SpaceFactRows).of(asked)
        const oneByOne = yield* Effect.flatMap(SpaceFactRows, (reads) => reads.of(asked)).pipe(
          Effect.provide(spaceFactRowsOneByOne(spaceFacts))
        )
        expect(orderedFactRows(readRows)).toEqual(orderedFactRows(oneByOne))
        const read = factRowsOf(readRows)
        // And what that is, so that both cannot be empty alike.
        expect([...read.changeRequests].sort()).toEqual([
          [first, { total: 2, open: 1, draft: 1 }],
          [second, { total: 1, open: 0, draft: 1 }]
        ].sort())
        expect([...read.openComments]).toEqual([[second, 2]])
        expect(read.sites.siteSpaces.map((s) => s.spaceId).sort()).toEqual([first, third].sort())
        expect(read.sites.sites.map((s) => s.id)).toEqual([site.id])
        expect(read.sites.structures.get(site.id)?.siteSpaces.map((s) => s.spaceId).sort()).toEqual([first, third].sort())
        expect(read.sites.structureSpaces.map((s) => s.id).sort()).toEqual([first, third].sort())
        expect(read.gitSync).toEqual([state])
        expect(factRowsOf(yield* (yield* SpaceFactRows).of([]))).toEqual({
          changeRequests: new Map(),
          openComments: new Map(),
          sites: { siteSpaces: [], sites: [], structures: new Map(), structureSpaces: [] },
          gitSync: []
        })
        // The space's view shows them.
        const view = yield* run(spaces.get(first))
        expect(countsOf(view)).toEqual({ comments: 0, changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1 })
        expect(gitSyncOf(yield* run(spaces.get(third)))?.repoName).toBe("owner/repo")
        expect(countsOf(yield* run(spaces.get(second))).comments).toBe(2)
        expect(publishedOf(yield* run(spaces.get(first)))).toBeUndefined()
        yield* run(sites.publish(site.id))
        expect(publishedOf(yield* run(spaces.get(first)))).toMatchObject({ organization: organization.id, site: site.id })
        expect(publishedOf(yield* run(spaces.get(third)))).toMatchObject({ organization: organization.id, site: site.id })
        expect(publishedOf(yield* run(spaces.get(second)))).toBeUndefined()
      }))

    it.effect("a revision read with its Git metadata, at once, is what each repository answers", () =>
      Effect.gen(function*() {
        const reads = yield* RevisionGitReads
        const revisions = yield* RevisionRepository
        const states = yield* GitSyncRepository
        const { space } = yield* adminWithNewSpace("Read with its commit")
        const revision = Option.getOrThrow(yield* revisions.findById(space.revisionId))
        expect(yield* reads.find(space.revisionId)).toEqual(Option.some({ revision, git: Option.none() }))
        const git = {
          revisionId: space.revisionId,
          spaceId: space.id,
          oid: "feed42",
          message: "Import\n",
          createdByService: true,
          ref: "refs/heads/main"
        }
        yield* states.saveRevision(git)
        expect(yield* reads.find(space.revisionId)).toEqual(Option.some({ revision, git: yield* states.findRevision(space.revisionId) }))
        expect(yield* reads.find(space.revisionId)).toEqual(Option.some({ revision, git: Option.some(git) }))
        expect(yield* reads.find(RevisionId.make(uniqueId("rv")))).toEqual(Option.none())
      }))
  })
