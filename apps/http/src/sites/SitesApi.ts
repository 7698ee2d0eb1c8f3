import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import {
  AdaptiveSchemaInput,
  CreateSiteInput,
  OrganizationId,
  ShareKeyQuery,
  SiteId,
  SiteListFilter,
  SiteType,
  UpdatePublishingAuthInput,
  UpdateSiteInput
} from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationPath } from "../organizations/OrganizationsApi.js"
import { BooleanFromString, Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { AdaptiveSchemaObject, PublishedContentSiteObject, PublishingAuthObject, SiteObject, SiteStructureObject } from "./Wire.js"

// Sites (conventions-2.md §1): GitBook's paths under the organization, with 201 and `Location` on creation.

export const SitePath = Schema.Struct({ organizationId: OrganizationId, siteId: SiteId })

/** `type` may repeat (`type=basic&type=premium`): read as a list; an unknown type is 400. */
const SiteTypes = Schema.transform(Schema.Union(SiteType, Schema.Array(SiteType)), Schema.Array(SiteType), {
  strict: true,
  decode: (value) => (typeof value === "string" ? [value] : value),
  encode: (values) => values
})

/** GitBook's list filters; `published` is `true` or `false`, anything else 400. */
const SiteListQuery = Schema.Struct({
  ...PageQuery,
  space: SiteListFilter.fields.space,
  title: SiteListFilter.fields.title,
  published: Schema.optional(BooleanFromString),
  type: Schema.optional(SiteTypes)
})

/** A share key: bad syntax is 400; a key that opens nothing is ignored. */
export const ShareKeyParam = { shareKey: Schema.optional(ShareKeyQuery) }

const sites = "/v1/orgs/:organizationId/sites"
const site = `${sites}/:siteId`

export class SitesApi extends HttpApiGroup.make("sites")
  .add(
    HttpApiEndpoint.get("list", sites)
      .setPath(OrganizationPath)
      .setUrlParams(SiteListQuery)
      .addSuccess(ListOf(SiteObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("create", sites)
      .setPath(OrganizationPath)
      .setPayload(CreateSiteInput)
      .addSuccess(SiteObject, Created)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(HttpApiEndpoint.get("get", site).setPath(SitePath).addSuccess(SiteObject).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.patch("update", site)
      .setPath(SitePath)
      .setPayload(UpdateSiteInput)
      .addSuccess(SiteObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(HttpApiEndpoint.del("remove", site).setPath(SitePath).pipe(errors(400, 403, 404)))
  .add(HttpApiEndpoint.post("publish", `${site}/publish`).setPath(SitePath).addSuccess(SiteObject).pipe(errors(400, 403, 404, 409)))
  .add(HttpApiEndpoint.post("unpublish", `${site}/unpublish`).setPath(SitePath).addSuccess(SiteObject).pipe(errors(400, 403, 404, 409)))
  .add(
    HttpApiEndpoint.get("getAdaptiveSchema", `${site}/adaptive-schema`)
      .setPath(SitePath)
      .addSuccess(AdaptiveSchemaObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.put("setAdaptiveSchema", `${site}/adaptive-schema`)
      .setPath(SitePath)
      .setPayload(AdaptiveSchemaInput)
      .addSuccess(AdaptiveSchemaObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("getPublished", `${site}/published`)
      .setPath(SitePath)
      .setUrlParams(Schema.Struct(ShareKeyParam))
      .addSuccess(PublishedContentSiteObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("getStructure", `${site}/structure`)
      .setPath(SitePath)
      .setUrlParams(Schema.Struct(ShareKeyParam))
      .addSuccess(SiteStructureObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("getPublishingAuth", `${site}/publishing/auth`)
      .setPath(SitePath)
      .addSuccess(PublishingAuthObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.patch("updatePublishingAuth", `${site}/publishing/auth`)
      .setPath(SitePath)
      .setPayload(UpdatePublishingAuthInput)
      .addSuccess(PublishingAuthObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("regeneratePublishingAuth", `${site}/publishing/auth/regenerate`)
      .setPath(SitePath)
      .addSuccess(PublishingAuthObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .middleware(Authentication)
{}
