import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { ExportGitInput, ImportGitInput } from "@octavo/domain"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SpacePath } from "../spaces/SpacesApi.js"
import { GitSyncStateObject } from "./Wire.js"

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
