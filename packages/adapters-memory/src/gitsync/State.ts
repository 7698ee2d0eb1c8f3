import type { GitSyncState, RevisionGit, SiteGitSyncState } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the gitsync context keeps in memory. */
export const GitSyncMemoryState = slice("@octavo/adapters-memory/gitsync", {
  /** By space id. */
  states: HashMap.empty<string, GitSyncState>(),
  /** By revision id. */
  revisions: HashMap.empty<string, RevisionGit>(),
  /** By site id. */
  sites: HashMap.empty<string, SiteGitSyncState>()
})
