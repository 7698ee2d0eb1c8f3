import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { CreateSamlProviderInput, OrganizationId, SamlProviderId, SubdomainName, UpdateSamlProviderInput } from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationPath } from "../organizations/OrganizationsApi.js"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SamlProviderObject, SsoLoginsObject, SubdomainObject } from "./Wire.js"

const ProviderPath = Schema.Struct({ organizationId: OrganizationId, samlProviderId: SamlProviderId })

export class SsoApi extends HttpApiGroup.make("sso")
  .add(
    HttpApiEndpoint.get("listProviders", "/v1/orgs/:organizationId/saml")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(SamlProviderObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("createProvider", "/v1/orgs/:organizationId/saml")
      .setPath(OrganizationPath)
      .setPayload(CreateSamlProviderInput)
      .addSuccess(SamlProviderObject, Created)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("getProvider", "/v1/orgs/:organizationId/saml/:samlProviderId")
      .setPath(ProviderPath)
      .addSuccess(SamlProviderObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.patch("updateProvider", "/v1/orgs/:organizationId/saml/:samlProviderId")
      .setPath(ProviderPath)
      .setPayload(UpdateSamlProviderInput)
      .addSuccess(SamlProviderObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.del("removeProvider", "/v1/orgs/:organizationId/saml/:samlProviderId")
      .setPath(ProviderPath)
      .pipe(errors(400, 403, 404, 412))
  )
  .add(
    HttpApiEndpoint.get("logins", "/v1/orgs/:organizationId/sso")
      .setPath(OrganizationPath)
      .addSuccess(SsoLoginsObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.get("subdomain", "/v1/subdomains/:subdomain")
      .setPath(Schema.Struct({ subdomain: SubdomainName }))
      .addSuccess(SubdomainObject)
      .pipe(errors(400, 404))
  )
  .middleware(Authentication)
{}
