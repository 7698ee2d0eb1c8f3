import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import {
  CreateTranslationSettingsInput,
  OrganizationId,
  ReplaceTranslationSettingsInput,
  TranslationSettingsId
} from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationPath } from "../organizations/OrganizationsApi.js"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { TranslationSettingsObject } from "./Wire.js"

const SettingsPath = Schema.Struct({ organizationId: OrganizationId, translationSettingsId: TranslationSettingsId })

export class TranslationsApi extends HttpApiGroup.make("translations")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/translations")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(TranslationSettingsObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/orgs/:organizationId/translations")
      .setPath(OrganizationPath)
      .setPayload(CreateTranslationSettingsInput)
      .addSuccess(TranslationSettingsObject, Created)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/orgs/:organizationId/translations/:translationSettingsId")
      .setPath(SettingsPath)
      .addSuccess(TranslationSettingsObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.put("replace", "/v1/orgs/:organizationId/translations/:translationSettingsId")
      .setPath(SettingsPath)
      .setPayload(ReplaceTranslationSettingsInput)
      .addSuccess(TranslationSettingsObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.del("remove", "/v1/orgs/:organizationId/translations/:translationSettingsId")
      .setPath(SettingsPath)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
