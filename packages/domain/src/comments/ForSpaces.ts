import type { SpaceId } from "../shared/Ids.js"
import type { SpaceCounts } from "../spaces/Ports.js"

/** The spaces context's counters of earlier contexts, with the open comments counted here. */
export const withOpenComments = (
  counts: ReadonlyMap<SpaceId, Partial<SpaceCounts>>,
  open: ReadonlyMap<SpaceId, number>
): Map<SpaceId, Partial<SpaceCounts>> => {
  const answered = new Map(counts)
  for (const [id, comments] of open) answered.set(id, { ...answered.get(id), comments })
  return answered
}
