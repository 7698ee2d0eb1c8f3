import { Context, Layer } from "effect"
import { type BoundedCache, boundedCache } from "../shared/BoundedCache.js"

/**
 * The URLs tracking parsed lately, by their text (null for one that is not a URL): a site's visitors go
 * to the same pages again and again, so each text is parsed once while it is among the last few
 * thousand. A URL's text always names the same URL, so no write invalidates an entry.
 */
export class RecentUrls extends Context.Tag("@octavo/domain/RecentUrls")<RecentUrls, BoundedCache<string, URL | null>>() {}

/** The last 4,096 texts parsed, all let go when one more comes. */
export const RecentUrlsLive = Layer.sync(RecentUrls, () => boundedCache(4096, "all"))
