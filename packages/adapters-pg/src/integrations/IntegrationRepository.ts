import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  Conflict,
  conflicts,
  ContentSecurityPolicy,
  InstallationConfiguration,
  InstallationId,
  InstallationRepository,
  Integration,
  IntegrationAsset,
  IntegrationBlock,
  IntegrationCategory,
  IntegrationConfigurations,
  IntegrationContentSource,
  IntegrationExternalLink,
  IntegrationInstallation,
  IntegrationRepository,
  IntegrationScope,
  IntegrationVersion
} from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { execute, findAll, findOne, Jsonb, rowOf, write } from "../shared/Rows.js"
import { byCreation, conflictOnUnique, containsIgnoringCase, selectPage } from "../shared/Sql.js"

const Strings = Schema.Array(Schema.String)

/** An integration's row: its shapes as json columns. */
export const IntegrationRow = rowOf(Integration, {
  icon: Jsonb(IntegrationAsset),
  previewImages: Jsonb(Schema.Array(IntegrationAsset)),
  scopes: Jsonb(Schema.Array(IntegrationScope)),
  categories: Jsonb(Schema.Array(IntegrationCategory)),
  blocks: Jsonb(Schema.Array(IntegrationBlock)),
  contentSources: Jsonb(Schema.Array(IntegrationContentSource)),
  externalLinks: Jsonb(Schema.Array(IntegrationExternalLink)),
  configurations: Jsonb(IntegrationConfigurations),
  contentSecurityPolicy: Jsonb(ContentSecurityPolicy),
  blockDomains: Jsonb(Strings)
})

const VersionRow = rowOf(IntegrationVersion)

export const InstallationRow = rowOf(IntegrationInstallation, {
  externalIds: Jsonb(Strings),
  configuration: Jsonb(InstallationConfiguration)
})

// Advisory locks of this context are (17, hash of the lower-cased name): they hold a name that no row has yet.
const LOCK_CLASS = 17

export const IntegrationRepositoryLive = Layer.effect(
  IntegrationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const insert = write(IntegrationRow, (row) => sql`INSERT INTO integrations ${sql.insert(row)}`)
    const update = execute(
      IntegrationRow,
      (row) =>
        sql`UPDATE integrations SET ${sql.update(row, ["name", "owner_id", "created_at"])}
          WHERE lower(name) = lower(${row["name"] as string})`
    )
    const findByName = findOne(Schema.String, IntegrationRow, (name) => sql`SELECT * FROM integrations WHERE lower(name) = lower(${name})`)
    const addVersion = execute(VersionRow, (row) => sql`INSERT INTO integration_versions ${sql.insert(row)}`)
    const versions = findAll(
      Schema.String,
      VersionRow,
      (name) => sql`SELECT * FROM integration_versions WHERE lower(name) = lower(${name}) ORDER BY version`
    )

    return IntegrationRepository.of({
      insert: (integration) =>
        guarded(insert(integration), () => new Conflict({ reason: `The integration name ${integration.name} is taken` })),
      update,
      // Its versions and installations go with it (ON DELETE CASCADE).
      remove: (name) => sql`DELETE FROM integrations WHERE lower(name) = lower(${name})`.pipe(Effect.asVoid, Effect.orDie),
      findByName,
      lock: (name) =>
        sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(lower(${name}))::int)`.pipe(Effect.asVoid, Effect.orDie),
      list: (filter, page) => {
        const where: Array<Fragment> = [sql`(i.visibility = 'public' OR i.owner_id = ANY(${filter.visibleTo}::text[]))`]
        if (filter.search !== undefined) {
          where.push(sql`(${containsIgnoringCase(sql, "i.name", filter.search)} OR ${containsIgnoringCase(sql, "i.title", filter.search)})`)
        }
        if (filter.category !== undefined) where.push(sql`i.categories::jsonb @> ${JSON.stringify([filter.category])}::jsonb`)
        if (filter.blockDomain !== undefined) {
          const domain = filter.blockDomain
          where.push(sql`EXISTS (SELECT 1 FROM json_array_elements_text(i.block_domains) AS d(host)
            WHERE d.host = ${domain} OR right(d.host, ${domain.length + 1}) = ${`.${domain}`})`)
        }
        if (filter.blocks !== undefined) {
          where.push(filter.blocks ? sql`json_array_length(i.blocks) > 0` : sql`json_array_length(i.blocks) = 0`)
        }
        if (filter.contentSources !== undefined) {
          where.push(filter.contentSources ? sql`json_array_length(i.content_sources) > 0` : sql`json_array_length(i.content_sources) = 0`)
        }
        if (filter.owner !== undefined) where.push(sql`i.owner_id = ${filter.owner}`)
        return selectPage(sql, {
          select: sql`i.*`,
          from: sql`FROM integrations i`,
          where,
          keyset: { value: "i.name", id: "i.name", orderKey: true },
          keysetOf: (integration) => [integration.name, integration.name],
          order: "asc",
          page,
          row: IntegrationRow
        })
      },
      addVersion,
      versions
    })
  })
)

export const InstallationRepositoryLive = Layer.effect(
  InstallationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const insert = write(InstallationRow, (row) => sql`INSERT INTO integration_installations ${sql.insert(row)}`)
    const update = execute(
      InstallationRow,
      (row) =>
        sql`UPDATE integration_installations SET ${
          sql.update(row, ["id", "integration_name", "organization_id", "created_at"])
        } WHERE id = ${row["id"] as string}`
    )
    return InstallationRepository.of({
      insert: (installation) =>
        guarded(insert(installation), (constraint) =>
          constraint === "integration_installations_organization_key"
            ? new Conflict({ reason: `The integration ${installation.integrationName} is installed in this organization already` })
            : conflicts.idTaken("installation", installation.id)),
      update,
      remove: (id) => sql`DELETE FROM integration_installations WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      findById: findOne(InstallationId, InstallationRow, (id) => sql`SELECT * FROM integration_installations WHERE id = ${id}`),
      list: (integrationName, filter, page) => {
        const where: Array<Fragment> = [sql`n.integration_name = ${integrationName}`]
        if (filter.organizations !== undefined) where.push(sql`n.organization_id = ANY(${filter.organizations}::text[])`)
        if (filter.externalId !== undefined) where.push(sql`n.external_ids::jsonb @> ${JSON.stringify([filter.externalId])}::jsonb`)
        return selectPage(sql, {
          select: sql`n.*`,
          from: sql`FROM integration_installations n`,
          where,
          ...byCreation("n"),
          page,
          row: InstallationRow
        })
      }
    })
  })
)
