import { Context, type Effect, type Either, type Option } from "effect"
import type { OrganizationId } from "../shared/Ids.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type { SamlProvider, SamlProviderId } from "./SamlProvider.js"

/** An organization's SAML providers. */
export class SamlProviderRepository extends Context.Tag("@octavo/domain/SamlProviderRepository")<SamlProviderRepository, {
  readonly insert: (provider: SamlProvider) => Effect.Effect<void>
  /** Replaces every field but the id, the organization and the creation time. */
  readonly update: (provider: SamlProvider) => Effect.Effect<void>
  readonly remove: (id: SamlProviderId) => Effect.Effect<void>
  readonly findById: (id: SamlProviderId) => Effect.Effect<Option.Option<SamlProvider>>
  /** Keyset over (createdAt in epoch ms, id) ascending. */
  readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<SamlProvider>>
  /** The providers whose status is `active`, by (createdAt, id). */
  readonly active: (organizationId: OrganizationId) => Effect.Effect<ReadonlyArray<SamlProvider>>
  /**
   * Inside a unit of work on a SQL store, holds the organization until the unit ends, so that
   * enforcing SSO and removing the last active provider cannot both pass at once.
   */
  readonly lockOrganization: (organizationId: OrganizationId) => Effect.Effect<void>
}>() {}

/** Reads X.509 certificates (a library's job, outside the domain). */
export class Certificates extends Context.Tag("@octavo/domain/Certificates")<Certificates, {
  /**
   * The certificate in a single PEM `CERTIFICATE` block or as bare base64 DER, as normalized PEM;
   * or why it is not one, in words that never quote it.
   */
  readonly normalize: (text: string) => Either.Either<string, string>
}>() {}

/** The storage the sso context owns. */
export type SsoPorts = SamlProviderRepository
