import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { ExportGitInput, ExportSiteGitInput, ImportGitInput, ImportSiteGitInput } from "@octavo/domain"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SitePath } from "../sites/SitesApi.js"
import { SpacePath } from "../spaces/SpacesApi.js"
import { GitSyncStateObject, SiteGitSyncStateObject } from "./Wire.js"

/** Git Sync (api.md "Git", conventions-2.md §8): both operations are queued and answered 204. */
export class GitSyncApi extends HttpApiGroup.make("gitsync")
  .add(
    HttpApiEndpoint.post("importRepository", "/v1/spaces/:spaceId/git/import")
      .setPath(SpacePath)
      .setPayload(ImportGitInput)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("exportRepository", "/v1/spaces/:spaceId/git/export")
      .setPath(SpacePath)
      .setPayload(ExportGitInput)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("info", "/v1/spaces/:spaceId/git/info")
      .setPath(SpacePath)
      .addSuccess(GitSyncStateObject)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}

/**
 * Site-level Git Sync (issue 39): a whole site from `docs.yaml` (GitBook's `GitSyncSiteConfig`), its state as GitBook's
 * `GitSyncSiteOperation`. GitBook's API has no paths for it; these follow the spaces' own.
 */
export class SiteGitSyncApi extends HttpApiGroup.make("siteGitSync")
  .add(
    HttpApiEndpoint.post("importSiteRepository", "/v1/orgs/:organizationId/sites/:siteId/git/import")
      .setPath(SitePath)
      .setPayload(ImportSiteGitInput)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("exportSiteRepository", "/v1/orgs/:organizationId/sites/:siteId/git/export")
      .setPath(SitePath)
      .setPayload(ExportSiteGitInput)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("siteGitInfo", "/v1/orgs/:organizationId/sites/:siteId/git/info")
      .setPath(SitePath)
      .addSuccess(SiteGitSyncStateObject)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
