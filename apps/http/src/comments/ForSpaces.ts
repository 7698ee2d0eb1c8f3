import { OpenCommentsFact } from "@octavo/domain"
import type { SpaceFields } from "../spaces/Present.js"

/** A space's open comments counted, as GitBook's `Space` shows them. */
export const openCommentFields: SpaceFields = (_, { facts, space }) => {
  const open = facts.of(OpenCommentsFact, space.id)
  return open === undefined ? {} : { comments: open }
}
