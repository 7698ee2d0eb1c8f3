import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { GitSync } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { GitSyncApi } from "./GitSyncApi.js"
import { presentGitSyncState } from "./Present.js"

export const GitSyncLive = HttpApiBuilder.group(OctavoBase.add(GitSyncApi), "gitsync", (handlers) =>
  Effect.gen(function*() {
    const gitSync = yield* GitSync
    return handlers
      .handle("importRepository", ({ path, payload }) => domain(gitSync.importRepository(path.spaceId, payload)))
      .handle("exportRepository", ({ path, payload }) => domain(gitSync.exportRepository(path.spaceId, payload)))
      .handle("info", ({ path }) => domain(gitSync.info(path.spaceId)).pipe(Effect.map(presentGitSyncState)))
  }))
