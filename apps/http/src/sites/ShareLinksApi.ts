import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { CreateShareLinkInput, ShareLinkId, StoredString, UpdateShareLinkInput } from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SitePath } from "./SitesApi.js"
import { ShareLinkObject } from "./Wire.js"

// A site's share links (conventions-2.md §1.3): the key shows only inside each link's published URL.

const ShareLinkPath = Schema.Struct({ ...SitePath.fields, shareLinkId: ShareLinkId })

const shareLinks = "/v1/orgs/:organizationId/sites/:siteId/share-links"

export class ShareLinksApi extends HttpApiGroup.make("shareLinks")
  .add(
    HttpApiEndpoint.get("listShareLinks", shareLinks)
      .setPath(SitePath)
      .setUrlParams(Schema.Struct({ ...PageQuery, search: Schema.optional(StoredString) }))
      .addSuccess(ListOf(ShareLinkObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("createShareLink", shareLinks)
      .setPath(SitePath)
      .setPayload(CreateShareLinkInput)
      .addSuccess(ShareLinkObject, Created)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.patch("updateShareLink", `${shareLinks}/:shareLinkId`)
      .setPath(ShareLinkPath)
      .setPayload(UpdateShareLinkInput)
      .addSuccess(ShareLinkObject)
      .pipe(errors(400, 403, 404))
  )
  .add(HttpApiEndpoint.del("removeShareLink", `${shareLinks}/:shareLinkId`).setPath(ShareLinkPath).pipe(errors(400, 403, 404)))
  .middleware(Authentication)
{}
