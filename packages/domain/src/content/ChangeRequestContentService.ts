import { Effect, Option } from "effect"
import type { FileId, PageId, SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { HeavyWork } from "../shared/HeavyWork.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { PageLinkTargetsLive } from "./Caches.js"
import type { ChangeRequest, ChangeRequestView } from "./ChangeRequest.js"
import { makeChangeRequestWork, notFound, requireOpenForWork } from "./ChangeRequestWork.js"
import { type AppliedChange, applyChanges, type FetchedFile } from "./Changes.js"
import { type EditedView, makeContentWork } from "./ContentWork.js"
import { makeFileFetch } from "./Fetch.js"
import type { LinkStatus } from "./Links.js"
import { ContentChanges, type RevisionContent } from "./Page.js"
import { ChangeRequestRepository } from "./Ports.js"
import { RevisionContents } from "./RevisionContents.js"
import { makeRevisions } from "./Revisions.js"

/**
 * The content of change requests (the API's `changeRequests` group): reading their latest revision,
 * its pages, files and links, and editing it, one batch of changes into one new revision.
 */
export class ChangeRequestContent extends Effect.Service<ChangeRequestContent>()("@octavo/domain/ChangeRequestContent", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const changeRequests = yield* ChangeRequestRepository
    const contents = yield* RevisionContents
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const written = yield* makeRevisions
    const fetchFiles = yield* makeFileFetch
    const work = yield* HeavyWork
    const { find, locate, view, withChangeRequest } = yield* makeChangeRequestWork
    const { contentOfRevision, fileBacklinksIn, fileBytes, fileIn, filesIn, linksIn, pageAtPath, pageIn, revisionIn, storeBlob } =
      yield* makeContentWork

    /** The change request's latest revision and its content. */
    const content = (spaceId: SpaceId, reference: string) =>
      Effect.flatMap(locate(spaceId, reference), ({ changeRequest, grant }) => revisionIn(grant, changeRequest.revisionId))

    /** A page of the change request's latest revision. */
    const page = (spaceId: SpaceId, reference: string, pageId: PageId) =>
      Effect.flatMap(content(spaceId, reference), (view) => pageIn(view, pageId))

    /** A page of the change request's latest revision by its path. */
    const pageByPath = (spaceId: SpaceId, reference: string, path: string) =>
      Effect.flatMap(content(spaceId, reference), (view) => pageAtPath(view, path))

    const files = (spaceId: SpaceId, reference: string, request: PageRequest) =>
      Effect.map(content(spaceId, reference), (view) => filesIn(view, request))

    const file = (spaceId: SpaceId, reference: string, fileId: FileId) =>
      Effect.flatMap(content(spaceId, reference), (view) => fileIn(view, fileId))

    /** The bytes of a file of the change request's latest revision. */
    const download = (spaceId: SpaceId, reference: string, fileId: FileId) => Effect.flatMap(file(spaceId, reference, fileId), fileBytes)

    const fileBacklinks = (spaceId: SpaceId, reference: string, fileId: FileId, appBase: string, request: PageRequest) =>
      Effect.gen(function*() {
        const { changeRequest, grant } = yield* locate(spaceId, reference)
        const view = yield* revisionIn(grant, changeRequest.revisionId)
        return yield* fileBacklinksIn(view, grant.space.organizationId, fileId, appBase, request)
      })

    /** The links of the change request's latest revision; its broken links are its own. */
    const links = (
      spaceId: SpaceId,
      reference: string,
      appBase: string,
      filter: { readonly status?: LinkStatus | undefined; readonly page?: PageId | undefined },
      request: PageRequest
    ) =>
      Effect.flatMap(
        content(spaceId, reference),
        (view) => linksIn(view, appBase, filter, request, (all) => Effect.succeed(all.filter((l) => l.status === "broken").length))
      )

    /** The change request, when the actor may edit it (`edit` level) and it is still open for work. */
    const requireEditable = (spaceId: SpaceId, reference: string) =>
      Effect.gen(function*() {
        const { changeRequest: found, grant } = yield* withChangeRequest(spaceId, reference)
        const proof = yield* guard.require(grant, "edit", "edit change requests in this space")
        if (Option.isNone(found)) return yield* notFound(reference)
        const changeRequest = found.value
        yield* requireOpenForWork(changeRequest)
        return { proof, space: proof.space, changeRequest }
      })

    /**
     * Applies changes into one new revision of the change request: `edit` level, and a change
     * request still open for work. `plan` turns its latest content into the changes.
     */
    const editWith = <E>(
      spaceId: SpaceId,
      reference: string,
      plan: (base: RevisionContent) => Effect.Effect<ReadonlyArray<AppliedChange>, E>,
      fetched?: ReadonlyMap<string, FetchedFile>
    ) =>
      Effect.gen(function*() {
        const { proof, space } = yield* requireEditable(spaceId, reference)
        return yield* uow.transaction(Effect.gen(function*() {
          // Read again under the space's lock: it may have moved on since it was checked.
          const locked = yield* guard.lockForChange(proof)
          const changeRequest = yield* find(space, reference)
          yield* requireOpenForWork(changeRequest)
          const at = yield* now
          const base = yield* contents.load(changeRequest.revisionId)
          const applied = yield* applyChanges(base, yield* plan(base), {
            now: at,
            newId: secrets.newId,
            storeBlob,
            fetched,
            revertBase: contents.load(changeRequest.baseRevisionId),
            revisionContent: contentOfRevision(space.id),
            work
          })
          const revision = yield* written.record(proof, [changeRequest.revisionId], "edits", at, {
            on: changeRequest.revisionId,
            delta: applied.delta,
            content: applied.content
          })
          const edited: ChangeRequest = { ...changeRequest, revisionId: revision.id, updatedAt: at }
          yield* changeRequests.update(edited)
          return {
            revision,
            content: applied.content,
            outcomes: applied.outcomes,
            insertedFiles: applied.insertedFiles,
            changeRequest: yield* view(locked, edited)
          } satisfies EditedView & { readonly changeRequest: ChangeRequestView }
        }))
      })

    /** Applies a batch of changes into one new revision of the change request; files by URL are fetched first. */
    const edit = (spaceId: SpaceId, reference: string, input: ContentChanges) =>
      Effect.gen(function*() {
        const valid = yield* validate(ContentChanges)(input)
        yield* requireEditable(spaceId, reference)
        const fetched = yield* fetchFiles(valid.changes)
        return yield* editWith(spaceId, reference, () => Effect.succeed(valid.changes), fetched)
      })

    return { content, page, pageByPath, files, file, download, fileBacklinks, links, requireEditable, editWith, edit } as const
  }),
  dependencies: [PageLinkTargetsLive]
}) {}
