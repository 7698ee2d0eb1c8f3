import { ChangeRequestCountsFact } from "@octavo/domain"
import type { SpaceFields } from "../spaces/Present.js"

/** A space's change requests counted, as GitBook's `Space` shows them. */
export const changeRequestFields: SpaceFields = (_, { facts, space }) => {
  const counts = facts.of(ChangeRequestCountsFact, space.id)
  return counts === undefined
    ? {}
    : { changeRequests: counts.total, changeRequestsOpen: counts.open, changeRequestsDraft: counts.draft }
}
