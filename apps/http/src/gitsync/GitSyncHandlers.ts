import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { GitSync, inOrganization, SiteGitSync } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { GitSyncApi, SiteGitSyncApi } from "./GitSyncApi.js"
import { presentGitSyncState, presentSiteGitSync } from "./Present.js"

export const GitSyncLive = HttpApiBuilder.group(OctavoBase.add(GitSyncApi), "gitsync", (handlers) =>
  Effect.gen(function*() {
    const gitSync = yield* GitSync
    return handlers
      .handle("importRepository", ({ path, payload }) => domain(gitSync.importRepository(path.spaceId, payload)))
      .handle("exportRepository", ({ path, payload }) => domain(gitSync.exportRepository(path.spaceId, payload)))
      .handle("info", ({ path }) => domain(gitSync.info(path.spaceId)).pipe(Effect.map(presentGitSyncState)))
  }))

export const SiteGitSyncLive = HttpApiBuilder.group(OctavoBase.add(SiteGitSyncApi), "siteGitSync", (handlers) =>
  Effect.gen(function*() {
    const sites = yield* SiteGitSync
    return handlers
      .handle("importSiteRepository", ({ path, payload }) =>
        domain(inOrganization(path.organizationId)(sites.importSite(path.siteId, payload))))
      .handle("exportSiteRepository", ({ path, payload }) =>
        domain(inOrganization(path.organizationId)(sites.exportSite(path.siteId, payload))))
      .handle("siteGitInfo", ({ path }) =>
        domain(inOrganization(path.organizationId)(sites.info(path.siteId))).pipe(Effect.map(presentSiteGitSync)))
  }))
