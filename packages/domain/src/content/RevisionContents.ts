import { Effect } from "effect"
import type { RevisionId } from "../shared/Ids.js"
import type { RevisionContent } from "./Page.js"
import { RevisionContentRepository } from "./Ports.js"

/**
 * What the revisions kept here may weigh together, in an estimate of their bytes: a page counts its
 * markdown and a fixed 512 for the rest, a file a fixed 256. 64 MiB holds about a dozen revisions
 * of a 5,000-page space.
 */
export const KEPT_CONTENT_BYTES = 64 * 1024 * 1024

const weightOf = (content: RevisionContent): number => {
  let bytes = 256 * content.files.size
  for (const page of content.pages.values()) bytes += 512 + page.markdown.length
  return bytes
}

/**
 * Revision content as the storage holds it, the revisions read or written last kept in memory.
 * A revision never changes, so a kept one is what the storage would answer, on every server that
 * shares it; keeping one saves reading and decoding the whole page set again, as each edit of a
 * space would otherwise do for the revision the edit before it wrote. Empty content (a revision
 * with nothing stored) is not kept: it costs nothing to read, and a revision read before it is
 * saved must not stay empty.
 */
export class RevisionContents extends Effect.Service<RevisionContents>()("@octavo/domain/RevisionContents", {
  effect: Effect.gen(function*() {
    const repository = yield* RevisionContentRepository
    /** Least recently used first. */
    const kept = new Map<RevisionId, { readonly content: RevisionContent; readonly weight: number }>()
    let weight = 0

    const forget = (revisionId: RevisionId) => {
      const entry = kept.get(revisionId)
      if (entry === undefined) return
      kept.delete(revisionId)
      weight -= entry.weight
    }

    /** Keeps `content` as the content of `revisionId`, dropping the least recently used beyond the budget. */
    const remember = (revisionId: RevisionId, content: RevisionContent) =>
      Effect.sync(() => {
        if (content.pages.size === 0 && content.files.size === 0) return
        const entryWeight = weightOf(content)
        if (entryWeight > KEPT_CONTENT_BYTES) return
        forget(revisionId)
        kept.set(revisionId, { content, weight: entryWeight })
        weight += entryWeight
        for (const [oldest] of kept) {
          if (weight <= KEPT_CONTENT_BYTES) break
          forget(oldest)
        }
      })

    /** Everything the revision holds: from memory when kept, else from the storage (and kept). */
    const load = (revisionId: RevisionId): Effect.Effect<RevisionContent> =>
      Effect.suspend(() => {
        const entry = kept.get(revisionId)
        if (entry === undefined) return Effect.tap(repository.load(revisionId), (content) => remember(revisionId, content))
        kept.delete(revisionId)
        kept.set(revisionId, entry)
        return Effect.succeed(entry.content)
      })

    return { load, remember, loadPage: repository.loadPage, loadBranch: repository.loadBranch } as const
  })
}) {}
