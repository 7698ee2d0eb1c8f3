import { GitSyncRepository, SiteGitSyncRepository } from "@octavo/domain"
import { Effect } from "effect"
import { layerOver } from "../shared/index.js"
import { GitSyncMemoryState } from "./State.js"

export const MemoryGitSyncRepository = layerOver(GitSyncRepository, GitSyncMemoryState, ({ revisions, states }) => ({
  find: (spaceId) => states.get(spaceId),
  findMany: (spaceIds) => {
    const asked = new Set<string>(spaceIds)
    return states.filter((s) => asked.has(s.spaceId))
  },
  save: (state) => states.upsert(state.spaceId, () => state),
  // Memory units of work already run one at a time.
  lock: () => Effect.void,
  running: () => states.filter((s) => s.operation?.state === "running"),
  saveRevision: (git) => revisions.upsert(git.revisionId, () => git),
  findRevision: (revisionId) => revisions.get(revisionId)
}))

export const MemorySiteGitSyncRepository = layerOver(SiteGitSyncRepository, GitSyncMemoryState, ({ sites }) => ({
  find: (siteId) => sites.get(siteId),
  save: (state) => sites.upsert(state.siteId, () => state),
  lock: () => Effect.void,
  running: () => sites.filter((s) => s.operation?.state === "running")
}))
