import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import {
  InstallIntegrationInput,
  IntegrationCategory,
  PublishIntegrationInput,
  StoredString,
  UpdateInstallationInput
} from "@octavo/domain"
import { Schema } from "effect"
import { BooleanFromString, Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { InstallationObject, IntegrationObject } from "./Wire.js"

// Integrations (conventions-2.md §7): GitBook's paths. A first publish answers 201 with `Location`,
// a later one 200 (the status is set by the handler: both carry the same object).

export const IntegrationPath = Schema.Struct({ integrationName: StoredString })
const InstallationPath = Schema.Struct({ ...IntegrationPath.fields, installationId: StoredString })
const AssetPath = Schema.Struct({ ...IntegrationPath.fields, assetKey: StoredString })

/** GitBook's listIntegrations filters; `blockDomain` is checked by the domain, which names its rule. */
const IntegrationListQuery = Schema.Struct({
  ...PageQuery,
  search: Schema.optional(StoredString),
  category: Schema.optional(IntegrationCategory),
  blockDomain: Schema.optional(StoredString),
  blocks: Schema.optional(BooleanFromString),
  contentSources: Schema.optional(BooleanFromString),
  owner: Schema.optional(StoredString)
})

const integration = "/v1/integrations/:integrationName"
const installations = `${integration}/installations`

export class IntegrationsApi extends HttpApiGroup.make("integrations")
  .add(
    HttpApiEndpoint.get("list", "/v1/integrations")
      .setUrlParams(IntegrationListQuery)
      .addSuccess(ListOf(IntegrationObject))
      .pipe(errors(400))
  )
  .add(HttpApiEndpoint.get("get", integration).setPath(IntegrationPath).addSuccess(IntegrationObject).pipe(errors(400, 404)))
  .add(
    HttpApiEndpoint.post("publish", integration)
      .setPath(IntegrationPath)
      .setPayload(PublishIntegrationInput)
      .addSuccess(IntegrationObject)
      .pipe(errors(400, 403, 409, 412))
  )
  .add(HttpApiEndpoint.del("unpublish", integration).setPath(IntegrationPath).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.get("listInstallations", installations)
      .setPath(IntegrationPath)
      .setUrlParams(Schema.Struct({ ...PageQuery, externalId: Schema.optional(StoredString) }))
      .addSuccess(ListOf(InstallationObject))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.post("install", installations)
      .setPath(IntegrationPath)
      .setPayload(InstallIntegrationInput)
      .addSuccess(InstallationObject, Created)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("getInstallation", `${installations}/:installationId`)
      .setPath(InstallationPath)
      .addSuccess(InstallationObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.patch("updateInstallation", `${installations}/:installationId`)
      .setPath(InstallationPath)
      .setPayload(UpdateInstallationInput)
      .addSuccess(InstallationObject)
      .pipe(errors(400, 403, 404))
  )
  .add(HttpApiEndpoint.del("uninstall", `${installations}/:installationId`).setPath(InstallationPath).pipe(errors(400, 403, 404)))
  // The bytes of an icon or a preview image, with their type: the URLs that `urls.icon` and `previewImages` give.
  .add(HttpApiEndpoint.get("asset", `${integration}/assets/:assetKey`).setPath(AssetPath).pipe(errors(400, 404)))
  .middleware(Authentication)
{}
