import { Effect, Layer, Option } from "effect"
import { SpaceRepository } from "../spaces/Ports.js"
import { findByKey } from "./ChangeRequest.js"
import { ChangeRequestRepository, SpaceChangeRequestReads } from "./Ports.js"

/** `SpaceChangeRequestReads` over the spaces' and the change requests' repositories, one read after the other. */
export const SpaceChangeRequestReadsOneByOne = Layer.effect(
  SpaceChangeRequestReads,
  Effect.gen(function*() {
    const spaces = yield* SpaceRepository
    const changeRequests = yield* ChangeRequestRepository
    return SpaceChangeRequestReads.of({
      find: (spaceId, userId, key) =>
        Effect.flatMap(spaces.findForAccess(spaceId, userId), (found) =>
          Option.isNone(found)
            ? Effect.succeedNone
            : Effect.map(findByKey(changeRequests, spaceId, key), (changeRequest) => Option.some({ ...found.value, changeRequest })))
    })
  })
)
