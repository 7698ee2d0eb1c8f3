import { Effect, Option } from "effect"
import type { PageId, RevisionId, SpaceId } from "../shared/Ids.js"
import type { PageRequest } from "../shared/Pagination.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { PageLinkTargetsLive } from "./Caches.js"
import { makeContentWork, nodeOrFail } from "./ContentWork.js"
import { type LinkStatus, linksOf } from "./Links.js"
import { ChangeRequestRepository } from "./Ports.js"
import { RevisionContents } from "./RevisionContents.js"

/** Reading the content of spaces (the API's `content` group): their revisions, pages and links. */
export class Content extends Effect.Service<Content>()("@octavo/domain/Content", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const contents = yield* RevisionContents
    const changeRequests = yield* ChangeRequestRepository
    const { current, linksIn, linkTargets, pageAtPath, revisionIn } = yield* makeContentWork

    /** Any revision of the space, old ones included: they stay readable. */
    const revisionOf = (spaceId: SpaceId, revisionId: RevisionId) =>
      Effect.flatMap(guard.space(spaceId), (grant) => revisionIn(grant, revisionId))

    /** A page of the active revision, read as its branch: not the whole revision. */
    const page = (spaceId: SpaceId, pageId: PageId) =>
      Effect.gen(function*() {
        const { space } = yield* guard.space(spaceId)
        const branch = yield* contents.loadBranch(space.revisionId, pageId)
        return yield* nodeOrFail({ pages: new Map(branch.map((p) => [p.id, p])), files: new Map() }, pageId)
      })

    const pageByPath = (spaceId: SpaceId, path: string) => Effect.flatMap(current(spaceId), (view) => pageAtPath(view, path))

    const links = (
      spaceId: SpaceId,
      appBase: string,
      filter: { readonly status?: LinkStatus | undefined; readonly page?: PageId | undefined },
      request: PageRequest
    ) =>
      Effect.flatMap(current(spaceId), (view) =>
        linksIn(view, appBase, filter, request, () =>
          Effect.gen(function*() {
            const open = yield* changeRequests.list(spaceId, { status: "open" }, { limit: 1000, after: Option.none() })
            let broken = 0
            for (const changeRequest of open.items) {
              const crLinks = linksOf(yield* contents.load(changeRequest.revisionId), appBase, linkTargets)
              broken += crLinks.filter((l) => l.status === "broken" && (filter.page === undefined || l.page === filter.page)).length
            }
            return broken
          })))

    return { current, revisionOf, page, pageByPath, links } as const
  }),
  dependencies: [PageLinkTargetsLive]
}) {}
