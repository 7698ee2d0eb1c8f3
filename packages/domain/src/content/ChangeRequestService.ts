import { Effect, Option, Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { Conflict, NotFound } from "../shared/Errors.js"
import { ChangeRequestId, type FileId, type PageId, type RevisionId, type SpaceId, type UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { HeavyWork } from "../shared/HeavyWork.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import type { Space } from "../spaces/Space.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { type AppliedChange, applyChanges, type FetchedFile } from "./Changes.js"
import {
  type ChangeRequest,
  type ChangeRequestStatus,
  findByKey,
  type ChangeRequestView,
  CreateChangeRequestInput,
  UpdateChangeRequestInput
} from "./ChangeRequest.js"
import { Content, type EditedView } from "./ContentService.js"
import { makeRevisions } from "./Revisions.js"
import type { LinkStatus } from "./Links.js"
import { mergeContent } from "./Merge.js"
import { ContentChanges, type ContentDelta, type RevisionContent } from "./Page.js"
import {
  type ChangeRequestKey,
  ChangeRequestRepository,
  ChangeRequestViewFacts,
  SpaceChangeRequestReads,
  type SpaceWithChangeRequest
} from "./Ports.js"
import { RevisionContents } from "./RevisionContents.js"

export interface MergeResult {
  readonly result: "merge" | "update" | "conflicts"
  readonly revision: RevisionId
}

/** Which status changes a person may make; `merged` comes only from merging. */
const transitions: Readonly<Record<ChangeRequestStatus, ReadonlyArray<ChangeRequestStatus>>> = {
  draft: ["draft", "open", "archived"],
  open: ["open", "draft", "archived"],
  archived: ["archived", "draft", "open"],
  merged: []
}

export class ChangeRequests extends Effect.Service<ChangeRequests>()("@octavo/domain/ChangeRequests", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const contentService = yield* Content
    const changeRequests = yield* ChangeRequestRepository
    const contents = yield* RevisionContents
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const written = yield* makeRevisions
    const facts = yield* ChangeRequestViewFacts
    const reads = yield* SpaceChangeRequestReads
    const work = yield* HeavyWork

    /** Change requests as read, with their authors and their open comments (one read of both). */
    const views = (space: Space, list: ReadonlyArray<ChangeRequest>) =>
      Effect.map(facts.of(list), ({ authors, openComments }) =>
        list.map((changeRequest): ChangeRequestView => ({
          changeRequest,
          outdated: changeRequest.status !== "merged" && changeRequest.baseRevisionId !== space.revisionId,
          createdBy: authors.get(changeRequest.createdBy),
          openComments: openComments.get(changeRequest.id) ?? 0
        })))

    const view = (space: Space, changeRequest: ChangeRequest) =>
      Effect.map(views(space, [changeRequest]), (one) => one[0] as ChangeRequestView)

    const isChangeRequestId = Schema.is(ChangeRequestId)

    /** The change request a reference names: its number within the space or its id; undefined when it names none. */
    const keyOf = (reference: string): ChangeRequestKey | undefined => {
      // A number beyond PostgreSQL's integer, or a reference that is no id, names nothing.
      if (/^\d{1,10}$/.test(reference)) {
        const number = Number(reference)
        return number <= 2_147_483_647 ? { number } : undefined
      }
      return isChangeRequestId(reference) ? { id: reference } : undefined
    }

    const notFound = (reference: string) => new NotFound({ entity: "change request", id: reference })

    /** `reference` (the id or the number within the space) in a space read already, such as one under its lock. */
    const find = (space: Space, reference: string) =>
      Effect.gen(function*() {
        const key = keyOf(reference)
        const found = key === undefined ? Option.none() : yield* findByKey(changeRequests, space.id, key)
        if (Option.isNone(found)) return yield* notFound(reference)
        return found.value
      })

    /**
     * The actor's grant on a space it can read and what `read` reads with it (the change request `reference` names
     * there, if any, and whatever else it reads in the same round trip): a space the actor cannot see is not found
     * before its change request is looked at.
     */
    const withChangeRequestRead = <X extends SpaceWithChangeRequest>(
      spaceId: SpaceId,
      reference: string,
      read: (userId: UserId, key: ChangeRequestKey) => Effect.Effect<Option.Option<X>>
    ) =>
      Effect.gen(function*() {
        const key = keyOf(reference)
        if (key === undefined) return { grant: yield* guard.space(spaceId), found: Option.none<X>() }
        const actor = yield* Actor
        const found = yield* read(actor.id, key)
        return { grant: yield* guard.spaceFrom(spaceId, found), found }
      })

    const withChangeRequest = (spaceId: SpaceId, reference: string) =>
      Effect.map(
        withChangeRequestRead(spaceId, reference, (userId, key) => reads.find(spaceId, userId, key)),
        ({ found, grant }) => ({ grant, changeRequest: Option.flatMap(found, (read) => read.changeRequest) })
      )

    /**
     * `locate`, with what `read` reads in the same round trip as the space and the change request (as
     * `SpaceChangeRequestReads` reads them, and more).
     */
    const locateWith = <X extends SpaceWithChangeRequest>(
      spaceId: SpaceId,
      reference: string,
      read: (userId: UserId, key: ChangeRequestKey) => Effect.Effect<Option.Option<X>>
    ) =>
      Effect.flatMap(withChangeRequestRead(spaceId, reference, read), ({ found, grant }) => {
        const changeRequest = Option.flatMap(found, (read) => read.changeRequest)
        return Option.isNone(found) || Option.isNone(changeRequest)
          ? Effect.fail(notFound(reference))
          : Effect.succeed({ grant, changeRequest: changeRequest.value, read: found.value })
      })

    /** The change request `reference` names in a space the actor can read, with the actor's grant on the space. */
    const locate = (spaceId: SpaceId, reference: string) =>
      locateWith(spaceId, reference, (userId, key) => reads.find(spaceId, userId, key))

    const create = (spaceId: SpaceId, input: CreateChangeRequestInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateChangeRequestInput)(input)
        const proof = yield* guard.authorize(spaceId, "edit", "open change requests in this space")
        const actor = yield* Actor
        const at = yield* now
        return yield* uow.transaction(Effect.gen(function*() {
          // Numbers are taken under the space's lock: concurrent creates queue instead of colliding.
          const space = yield* guard.lockForChange(proof)
          const changeRequest: ChangeRequest = {
            id: ChangeRequestId.make(yield* secrets.newId),
            spaceId,
            number: (yield* changeRequests.lastNumber(spaceId)) + 1,
            status: "draft",
            subject: valid.subject ?? "",
            initialRevisionId: space.revisionId,
            baseRevisionId: space.revisionId,
            revisionId: space.revisionId,
            createdBy: actor.id,
            createdAt: at,
            updatedAt: at
          }
          yield* changeRequests.insert(changeRequest)
          return yield* view(space, changeRequest)
        }))
      })

    const list = (spaceId: SpaceId, status: ChangeRequestStatus | undefined, page: PageRequest) =>
      Effect.gen(function*() {
        const { space } = yield* guard.space(spaceId)
        const result = yield* changeRequests.list(spaceId, { status }, page)
        return { ...result, items: yield* views(space, result.items) }
      })

    const get = (spaceId: SpaceId, reference: string) =>
      Effect.flatMap(locate(spaceId, reference), ({ changeRequest, grant }) => view(grant.space, changeRequest))

    const update = (spaceId: SpaceId, reference: string, input: UpdateChangeRequestInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateChangeRequestInput)(input)
        const proof = yield* guard.authorize(spaceId, "edit", "change change requests in this space")
        return yield* uow.transaction(Effect.gen(function*() {
          // Under the space's lock and read again: an edit or a merge that landed meanwhile stays.
          const current = yield* guard.lockForChange(proof)
          const latest = yield* find(current, reference)
          if (valid.status !== undefined && !transitions[latest.status].includes(valid.status)) {
            return yield* new Conflict({ reason: `A ${latest.status} change request cannot become ${valid.status}` })
          }
          if (latest.status === "merged") return yield* new Conflict({ reason: "A merged change request cannot change" })
          const updated: ChangeRequest = {
            ...latest,
            subject: valid.subject ?? latest.subject,
            status: valid.status ?? latest.status,
            updatedAt: yield* now
          }
          yield* changeRequests.update(updated)
          return yield* view(current, updated)
        }))
      })

    /** The change request's latest revision and its content. */
    const content = (spaceId: SpaceId, reference: string) =>
      Effect.flatMap(
        locate(spaceId, reference),
        ({ changeRequest, grant }) => contentService.revisionIn(grant, changeRequest.revisionId)
      )

    /** A page of the change request's latest revision. */
    const page = (spaceId: SpaceId, reference: string, pageId: PageId) =>
      Effect.flatMap(content(spaceId, reference), (view) => contentService.pageIn(view, pageId))

    /** A page of the change request's latest revision by its path. */
    const pageByPath = (spaceId: SpaceId, reference: string, path: string) =>
      Effect.flatMap(content(spaceId, reference), (view) => contentService.pageAtPath(view, path))

    const files = (spaceId: SpaceId, reference: string, request: PageRequest) =>
      Effect.map(content(spaceId, reference), (view) => contentService.filesIn(view, request))

    const file = (spaceId: SpaceId, reference: string, fileId: FileId) =>
      Effect.flatMap(content(spaceId, reference), (view) => contentService.fileIn(view, fileId))

    /** The bytes of a file of the change request's latest revision. */
    const download = (spaceId: SpaceId, reference: string, fileId: FileId) =>
      Effect.flatMap(file(spaceId, reference, fileId), contentService.fileBytes)

    const fileBacklinks = (spaceId: SpaceId, reference: string, fileId: FileId, appBase: string, request: PageRequest) =>
      Effect.gen(function*() {
        const { changeRequest, grant } = yield* locate(spaceId, reference)
        const view = yield* contentService.revisionIn(grant, changeRequest.revisionId)
        return yield* contentService.fileBacklinksIn(view, grant.space.organizationId, fileId, appBase, request)
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
        (view) =>
          contentService.linksIn(view, appBase, filter, request, (all) => Effect.succeed(all.filter((l) => l.status === "broken").length))
      )

    const requireOpenForWork = (changeRequest: ChangeRequest) =>
      changeRequest.status === "merged" || changeRequest.status === "archived"
        ? Effect.fail(new Conflict({ reason: `The change request is ${changeRequest.status}` }))
        : Effect.void

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
            storeBlob: contentService.storeBlob,
            fetched,
            revertBase: contents.load(changeRequest.baseRevisionId),
            revisionContent: contentService.contentOfRevision(space.id),
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
        const fetched = yield* contentService.fetchFiles(valid.changes)
        return yield* editWith(spaceId, reference, () => Effect.succeed(valid.changes), fetched)
      })

    /** Three-way merge of the change request's changes since its base onto the space's revision. */
    const combine = (space: Space, changeRequest: ChangeRequest) =>
      Effect.gen(function*() {
        const base = yield* contents.load(changeRequest.baseRevisionId)
        const ours = yield* contents.load(changeRequest.revisionId)
        const theirs = yield* contents.load(space.revisionId)
        return { outcome: mergeContent(base, ours, theirs), theirs }
      })

    /** Merging needs the `merge` permission (review level) and a space that is not locked. */
    const merge = (spaceId: SpaceId, reference: string) =>
      Effect.gen(function*() {
        const proof = yield* guard.authorize(spaceId, "review", "merge change requests in this space")
        return yield* uow.transaction(Effect.gen(function*() {
          const space = yield* guard.lockForChange(proof)
          if (space.editMode === "locked") return yield* new Conflict({ reason: "The space is locked: nothing can be merged into it" })
          const changeRequest = yield* find(space, reference)
          yield* requireOpenForWork(changeRequest)
          const { outcome, theirs } = yield* combine(space, changeRequest)
          if (outcome._tag === "conflicts") return { result: "conflicts", revision: changeRequest.revisionId } satisfies MergeResult
          const at = yield* now
          const revision = yield* written.record(proof, [space.revisionId, changeRequest.revisionId], "merge", at, {
            on: space.revisionId,
            delta: outcome.delta,
            content: outcome.content
          })
          yield* written.activate(space, revision, theirs, outcome.content, outcome.delta)
          yield* changeRequests.update({ ...changeRequest, status: "merged", mergedAt: at, updatedAt: at })
          return { result: "merge", revision: revision.id } satisfies MergeResult
        }))
      })

    /** Brings the space's changes into the change request, which is then based on the space's revision. */
    const updateFromSpace = (spaceId: SpaceId, reference: string) =>
      Effect.gen(function*() {
        const proof = yield* guard.authorize(spaceId, "edit", "update change requests in this space")
        return yield* uow.transaction(Effect.gen(function*() {
          const space = yield* guard.lockForChange(proof)
          const changeRequest = yield* find(space, reference)
          yield* requireOpenForWork(changeRequest)
          if (changeRequest.baseRevisionId === space.revisionId) {
            return { result: "update", revision: changeRequest.revisionId } satisfies MergeResult
          }
          const { outcome } = yield* combine(space, changeRequest)
          if (outcome._tag === "conflicts") return { result: "conflicts", revision: changeRequest.revisionId } satisfies MergeResult
          const at = yield* now
          // Stored against the space's revision: the delta is the change request's own changes.
          const delta: ContentDelta = outcome.delta
          const revision = yield* written.record(proof, [changeRequest.revisionId, space.revisionId], "update", at, {
            on: space.revisionId,
            delta,
            content: outcome.content
          })
          yield* changeRequests.update({ ...changeRequest, baseRevisionId: space.revisionId, revisionId: revision.id, updatedAt: at })
          return { result: "update", revision: revision.id } satisfies MergeResult
        }))
      })

    return {
      locate,
      locateWith,
      create,
      list,
      get,
      update,
      content,
      page,
      pageByPath,
      files,
      file,
      download,
      fileBacklinks,
      links,
      edit,
      editWith,
      requireEditable,
      merge,
      updateFromSpace
    } as const
  })
}) {}
