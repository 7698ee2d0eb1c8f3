import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import {
  BulkSiteRedirectsInput,
  CreateSiteRedirectInput,
  SiteRedirectId,
  SiteRedirectListFilter,
  SiteRedirectSource,
  UpdateSiteRedirectInput
} from "@octavo/domain"
import { Schema } from "effect"
import { BooleanFromString, Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { ShareKeyParam, SitePath } from "./SitesApi.js"
import { BulkSiteRedirectsObject, ResolvedSiteRedirectObject, SiteRedirectObject } from "./Wire.js"

// A site's redirects (issue 39), GitBook's `site-redirects` paths: readers list and resolve them, editors write them.

const SiteRedirectPath = Schema.Struct({ ...SitePath.fields, siteRedirectId: SiteRedirectId })

const redirects = "/v1/orgs/:organizationId/sites/:siteId/redirects"

const ListQuery = Schema.Struct({
  ...PageQuery,
  search: SiteRedirectListFilter.fields.search,
  draft: Schema.optional(BooleanFromString),
  orderBy: SiteRedirectListFilter.fields.orderBy
})

export class SiteRedirectsApi extends HttpApiGroup.make("siteRedirects")
  .add(
    HttpApiEndpoint.get("listSiteRedirects", redirects)
      .setPath(SitePath)
      .setUrlParams(ListQuery)
      .addSuccess(ListOf(SiteRedirectObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("createSiteRedirect", redirects)
      .setPath(SitePath)
      .setPayload(CreateSiteRedirectInput)
      .addSuccess(SiteRedirectObject, Created)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.put("bulkUpsertSiteRedirects", redirects)
      .setPath(SitePath)
      .setPayload(BulkSiteRedirectsInput)
      .addSuccess(BulkSiteRedirectsObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.patch("updateSiteRedirectById", `${redirects}/:siteRedirectId`)
      .setPath(SiteRedirectPath)
      .setPayload(UpdateSiteRedirectInput)
      .addSuccess(SiteRedirectObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.del("deleteSiteRedirectById", `${redirects}/:siteRedirectId`)
      .setPath(SiteRedirectPath)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("getSiteRedirectBySource", "/v1/orgs/:organizationId/sites/:siteId/redirect")
      .setPath(SitePath)
      .setUrlParams(Schema.Struct({ source: SiteRedirectSource, ...ShareKeyParam }))
      .addSuccess(ResolvedSiteRedirectObject)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
