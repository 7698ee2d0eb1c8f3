import { Effect } from "effect"
import type { FileId, SpaceId } from "../shared/Ids.js"
import type { PageRequest } from "../shared/Pagination.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { PageLinkTargetsLive } from "./Caches.js"
import { makeContentWork } from "./ContentWork.js"

/** The files of spaces (the API's `content` group): listing them, their bytes, the pages that link to them. */
export class ContentFiles extends Effect.Service<ContentFiles>()("@octavo/domain/ContentFiles", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const { current, fileBacklinksIn, fileBytes, fileIn, filesIn, loadRevision, storeBlob } = yield* makeContentWork

    const files = (spaceId: SpaceId, request: PageRequest) => Effect.map(current(spaceId), (view) => filesIn(view, request))

    const file = (spaceId: SpaceId, fileId: FileId) => Effect.flatMap(current(spaceId), (view) => fileIn(view, fileId))

    /** The bytes of a file of the active revision. */
    const download = (spaceId: SpaceId, fileId: FileId) => Effect.flatMap(file(spaceId, fileId), fileBytes)

    const fileBacklinks = (spaceId: SpaceId, fileId: FileId, appBase: string, request: PageRequest) =>
      Effect.gen(function*() {
        const { space } = yield* guard.space(spaceId)
        return yield* fileBacklinksIn(yield* loadRevision(space.revisionId), space.organizationId, fileId, appBase, request)
      })

    return { files, file, download, fileBacklinks, storeBlob } as const
  }),
  dependencies: [PageLinkTargetsLive]
}) {}
