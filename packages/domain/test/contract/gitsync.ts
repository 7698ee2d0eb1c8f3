import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import {
  type DomainServices,
  type GitSyncState,
  GitSyncRepository,
  RevisionId,
  type StoragePorts,
  UnitOfWork
} from "../../src/index.js"
import { adminWithNewSpace, at, uniqueId } from "./fixtures.js"

/** Git Sync's storage (conventions-2.md §8): a state document per space, Git metadata per imported revision. */
export const gitsyncContract = (storage: Layer.Layer<StoragePorts>, services: typeof DomainServices) =>
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
  })
