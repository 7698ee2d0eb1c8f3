import { Context, Layer } from "effect"
import { type BoundedCache, boundedCache } from "../shared/BoundedCache.js"

/**
 * The link targets written in the page versions read lately, by page version (`linksOf` keys them). A
 * page's version is never edited in place (a change makes a new version with a new `updatedAt`), so no
 * write invalidates an entry: the links endpoints read every page of a revision, and revisions share
 * most of their pages.
 */
export class PageLinkTargets extends Context.Tag("@octavo/domain/PageLinkTargets")<
  PageLinkTargets,
  BoundedCache<string, ReadonlyArray<string>>
>() {}

/** The last 20,000 page versions read, the one read first let go first. */
export const PageLinkTargetsLive = Layer.sync(PageLinkTargets, () => boundedCache(20_000, "oldest"))
