import { Effect, Option } from "effect"
import { InvalidInput } from "../shared/Errors.js"
import { WebFetcher } from "../shared/WebFetch.js"
import { type AppliedChange, type FetchedFile, fetchedKey, MAX_FILE_BYTES } from "./Changes.js"

/** Files a batch may insert by URL, all its changes together. */
export const MAX_URL_FILES = 20

/**
 * Fetches the files a batch inserts by URL, before the batch runs and outside any transaction, through
 * the guarded outbound fetcher imports use (its limits and `OCTAVO_IMPORT_ALLOW`). A refused or
 * failed fetch is a 400 naming the file; nothing of the batch is written then.
 */
export const makeFileFetch = Effect.gen(function*() {
  const fetcher = yield* Effect.serviceOption(WebFetcher)
  return (changes: ReadonlyArray<AppliedChange>): Effect.Effect<ReadonlyMap<string, FetchedFile>, InvalidInput> => {
    const wanted = changes.flatMap((change, index) =>
      change.operation === "insert_files"
        ? change.files.flatMap((
          file,
          i
        ) => (file.url === undefined ? [] : [{ key: fetchedKey(index, i), url: file.url, field: `changes.${index}.files.${i}.url` }]))
        : []
    )
    if (wanted.length === 0) return Effect.succeed(new Map())
    // One request may not make the server fetch without bound: the files of one change, at most.
    if (wanted.length > MAX_URL_FILES) {
      return Effect.fail(
        new InvalidInput({ field: "changes", rule: `may insert at most ${MAX_URL_FILES} files by URL in one batch, got ${wanted.length}` })
      )
    }
    return Effect.forEach(wanted, ({ field, key, url }) =>
      Option.match(fetcher, {
        onNone: () => Effect.fail(new InvalidInput({ field, rule: "cannot be fetched: this server has no outbound fetcher" })),
        onSome: (web) =>
          web.fetch(url, { maxBytes: MAX_FILE_BYTES }).pipe(
            Effect.mapError((failure) => new InvalidInput({ field, rule: `could not be fetched: ${failure.reason}` })),
            Effect.filterOrFail(
              (resource) => resource.status >= 200 && resource.status < 300,
              (resource) => new InvalidInput({ field, rule: `could not be fetched: the server answered ${resource.status}` })
            ),
            Effect.map((resource) => [key, { bytes: resource.body, contentType: resource.contentType }] as const)
          )
      }), { concurrency: 4 }).pipe(Effect.map((entries) => new Map(entries)))
  }
})
