import { Context, type Effect, type Option } from "effect"
import type { Conflict } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type { OpenAPISpec, OpenAPISpecId, OpenAPISpecVersion, OpenAPISpecVersionId } from "./OpenAPISpec.js"

/**
 * OpenAPI specs and the jobs of those fetched from a URL. A spec waiting for the worker is `pending`;
 * the one a worker took is `progress` under the worker's claim until its lease ends.
 */
export class OpenAPISpecRepository extends Context.Tag("@octavo/domain/OpenAPISpecRepository")<OpenAPISpecRepository, {
  /** Fails with `specSlugTaken` when the organization has a spec with the slug. */
  readonly insert: (spec: OpenAPISpec) => Effect.Effect<void, Conflict>
  /** Writes every field; updating what is not there changes nothing. */
  readonly update: (spec: OpenAPISpec) => Effect.Effect<void>
  /** Removes the spec with its versions. */
  readonly remove: (id: OpenAPISpecId) => Effect.Effect<void>
  readonly findBySlug: (organizationId: OrganizationId, slug: string) => Effect.Effect<Option.Option<OpenAPISpec>>
  /** As `findBySlug`, and the spec is held until the unit of work ends: writes of one spec queue behind each other. */
  readonly lockBySlug: (organizationId: OrganizationId, slug: string) => Effect.Effect<Option.Option<OpenAPISpec>>
  /** Keyset over (createdAt ms, id), oldest first. */
  readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<OpenAPISpec>>
  /**
   * Takes the job submitted first (by `submittedAt`, then id) among the pending specs and those in progress whose
   * lease ended before `now`: it becomes `progress` under `claim` until `leasedUntil`. Callers at the same time,
   * on any server, never take the same job.
   */
  readonly claimJob: (claim: string, now: Date, leasedUntil: Date) => Effect.Effect<Option.Option<OpenAPISpec>>
  /** The spec while its job is in progress under `claim`, held until the unit of work ends; none once it is not. */
  readonly lockClaimed: (id: OpenAPISpecId, claim: string) => Effect.Effect<Option.Option<OpenAPISpec>>
}>() {}

/** The versions of specs, with their texts. */
export class OpenAPISpecVersionRepository extends Context.Tag("@octavo/domain/OpenAPISpecVersionRepository")<
  OpenAPISpecVersionRepository,
  {
    readonly insert: (version: OpenAPISpecVersion, text: string) => Effect.Effect<void>
    readonly find: (specId: OpenAPISpecId, id: OpenAPISpecVersionId) => Effect.Effect<Option.Option<OpenAPISpecVersion>>
    /** The text exactly as it was stored. */
    readonly text: (id: OpenAPISpecVersionId) => Effect.Effect<Option.Option<string>>
    /** Keyset over (number, id), newest first. */
    readonly list: (specId: OpenAPISpecId, page: PageRequest) => Effect.Effect<Page<OpenAPISpecVersion>>
  }
>() {}

/** The storage the openapi context owns. */
export type OpenAPIPorts = OpenAPISpecRepository | OpenAPISpecVersionRepository
