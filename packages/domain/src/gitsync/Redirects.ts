import type { GitbookConfig } from "@octavo/markdown"
import { Schema } from "effect"
import { StoredString } from "../shared/Limits.js"
import { joinPath } from "./Format.js"

// `.gitbook.yaml`'s `redirects:` (issue 39): read at an import, kept with the space's sync state, answered by the
// published sites that show the space (reader/ReaderService.ts) where no page has the path.

/** One redirect of a space: an old path and the file it leads to. */
export const GitRedirect = Schema.Struct({
  /** Relative to the content root, without a final `.md`: the path after a site space's address. */
  source: StoredString,
  /** The file's path in the repository, as pages' `git.path` holds it. */
  target: StoredString
})
export type GitRedirect = typeof GitRedirect.Type

const withoutMd = (path: string) => path.replace(/\.md$/i, "")

/** The redirects a configuration declares, their targets under the content root. */
export const gitRedirectsOf = (config: GitbookConfig, contentRoot: string): ReadonlyArray<GitRedirect> =>
  (config.redirects ?? []).map(({ source, target }) => ({ source: withoutMd(source), target: joinPath(contentRoot, target) }))

/** The redirect of a page path (after the site space's address, with or without `.md`), if any. */
export const gitRedirectAt = (redirects: ReadonlyArray<GitRedirect>, pagePath: ReadonlyArray<string>): GitRedirect | undefined => {
  const path = withoutMd(pagePath.join("/"))
  return path === "" ? undefined : redirects.find((r) => r.source === path)
}
