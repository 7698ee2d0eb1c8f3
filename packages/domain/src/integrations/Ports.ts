import { Context, type Effect, type Option } from "effect"
import type { Conflict, PreconditionFailed } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type {
  InstallationId,
  Integration,
  IntegrationCategory,
  IntegrationInstallation,
  IntegrationVersion
} from "./Integration.js"

/** Which integrations a list holds; every filter is optional but `visibleTo`. */
export interface IntegrationFilter {
  /** Public integrations, and those owned by these organizations (the caller's), whatever their visibility. */
  readonly visibleTo: ReadonlyArray<OrganizationId>
  /** Case-insensitive substring of the name or the title. */
  readonly search?: string | undefined
  readonly category?: IntegrationCategory | undefined
  /** Equal to, or a parent domain of, one of `blockDomains` (lower-cased already). */
  readonly blockDomain?: string | undefined
  /** With blocks (true) or without (false). */
  readonly blocks?: boolean | undefined
  readonly contentSources?: boolean | undefined
  readonly owner?: OrganizationId | undefined
}

/**
 * Published integrations and their versions. Names are unique case-insensitively; each is kept as
 * first published.
 */
export class IntegrationRepository extends Context.Tag("@octavo/domain/IntegrationRepository")<IntegrationRepository, {
  /** Fails with Conflict when the name is taken, in any case. */
  readonly insert: (integration: Integration) => Effect.Effect<void, Conflict>
  /** Writes every field but the name, the owner and `createdAt`. */
  readonly update: (integration: Integration) => Effect.Effect<void>
  /** Removes the integration with its versions and its installations. */
  readonly remove: (name: string) => Effect.Effect<void>
  /** The integration whose name equals `name` ignoring case. */
  readonly findByName: (name: string) => Effect.Effect<Option.Option<Integration>>
  /** Inside a unit of work on a SQL store, locks the integration (by any case of its name) until the unit ends. */
  readonly lock: (name: string) => Effect.Effect<void>
  /** Keyset over (name, name) ascending, names compared as JavaScript compares strings. */
  readonly list: (filter: IntegrationFilter, page: PageRequest) => Effect.Effect<Page<Integration>>
  readonly addVersion: (version: IntegrationVersion) => Effect.Effect<void>
  /** The integration's versions, oldest first. */
  readonly versions: (name: string) => Effect.Effect<ReadonlyArray<IntegrationVersion>>
}>() {}

export interface InstallationFilter {
  /** Only installations in these organizations; absent, in any. */
  readonly organizations?: ReadonlyArray<OrganizationId> | undefined
  /** Only installations with this among their `externalIds`. */
  readonly externalId?: string | undefined
}

/** Installations of integrations in organizations: at most one per integration and organization. */
export class InstallationRepository extends Context.Tag("@octavo/domain/InstallationRepository")<InstallationRepository, {
  /** Fails with Conflict when the integration is installed in the organization already. */
  readonly insert: (installation: IntegrationInstallation) => Effect.Effect<void, Conflict>
  /** Writes the external ids, configuration, selections and `updatedAt`. */
  readonly update: (installation: IntegrationInstallation) => Effect.Effect<void>
  readonly remove: (id: InstallationId) => Effect.Effect<void>
  readonly findById: (id: InstallationId) => Effect.Effect<Option.Option<IntegrationInstallation>>
  /** The integration's installations (by its stored name), keyset over (createdAt ms, id) ascending. */
  readonly list: (
    integrationName: string,
    filter: InstallationFilter,
    page: PageRequest
  ) => Effect.Effect<Page<IntegrationInstallation>>
}>() {}

/**
 * Seals secrets so that storage holds only ciphertext (decision 8: AES-256-GCM under
 * OCTAVO_SECRET_KEY); a cryptography library's job, outside the domain.
 */
export class SecretBox extends Context.Tag("@octavo/domain/SecretBox")<SecretBox, {
  /** Encrypts and authenticates; fails when no key is configured, naming the variable that gives one. */
  readonly seal: (plaintext: string) => Effect.Effect<string, PreconditionFailed>
  /** The plaintext of what `seal` made under the same key; fails without a key or for anything else. */
  readonly open: (sealed: string) => Effect.Effect<string, PreconditionFailed>
}>() {}

/** The storage the integrations context owns. */
export type IntegrationsPorts = IntegrationRepository | InstallationRepository
