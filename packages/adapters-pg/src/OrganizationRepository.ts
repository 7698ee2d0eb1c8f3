import * as SqlClient from "@effect/sql/SqlClient"
import {
  conflicts,
  DefaultContent,
  type MemberRole,
  type Organization,
  type OrganizationId,
  OrganizationRepository
} from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { conflictOnUnique, type Millis, selectPage, toDate } from "./Sql.js"

interface OrganizationRow {
  readonly id: OrganizationId
  readonly title: string
  readonly created_at: Millis
  readonly email_domains: ReadonlyArray<string>
  readonly hostname: string | null
  readonly default_role: MemberRole
  readonly default_content: unknown
  readonly logo: string | null
  readonly sso: boolean
  readonly ai: boolean
  readonly invite_links: boolean
}

const decodeDefaultContent = Schema.decodeUnknownSync(DefaultContent)

const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  title: row.title,
  createdAt: toDate(row.created_at),
  emailDomains: row.email_domains,
  ...(row.hostname === null ? {} : { hostname: row.hostname }),
  defaultRole: row.default_role,
  ...(row.default_content === null ? {} : { defaultContent: decodeDefaultContent(row.default_content) }),
  ...(row.logo === null ? {} : { logo: row.logo }),
  sso: row.sso,
  ai: row.ai,
  inviteLinks: row.invite_links
})

export const OrganizationRepositoryLive = Layer.effect(
  OrganizationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const conflictReason = (organization: Organization) => (constraint: string) =>
      constraint === "organizations_hostname_key"
        ? conflicts.hostnameTaken(organization.hostname ?? "")
        : conflicts.idTaken("organization", organization.id)
    const defaultContent = (organization: Organization) =>
      organization.defaultContent === undefined ? null : JSON.stringify(organization.defaultContent)

    return OrganizationRepository.of({
      insert: (organization) =>
        guarded(
          sql`INSERT INTO organizations
            (id, title, created_at, email_domains, hostname, default_role, default_content, logo, sso, ai, invite_links)
            VALUES (${organization.id}, ${organization.title}, ${organization.createdAt.getTime()},
              ${organization.emailDomains}::text[], ${organization.hostname ?? null}, ${organization.defaultRole},
              ${defaultContent(organization)}::jsonb, ${organization.logo ?? null}, ${organization.sso},
              ${organization.ai}, ${organization.inviteLinks})`,
          conflictReason(organization)
        ).pipe(Effect.asVoid),
      update: (organization) =>
        guarded(
          sql`UPDATE organizations SET
              title = ${organization.title},
              created_at = ${organization.createdAt.getTime()},
              email_domains = ${organization.emailDomains}::text[],
              hostname = ${organization.hostname ?? null},
              default_role = ${organization.defaultRole},
              default_content = ${defaultContent(organization)}::jsonb,
              logo = ${organization.logo ?? null},
              sso = ${organization.sso},
              ai = ${organization.ai},
              invite_links = ${organization.inviteLinks}
            WHERE id = ${organization.id}`,
          conflictReason(organization)
        ).pipe(Effect.asVoid),
      findById: (id) =>
        sql<OrganizationRow>`SELECT * FROM organizations WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toOrganization)),
          Effect.orDie
        ),
      listForUser: (userId, page) =>
        selectPage(sql, {
          select: sql`o.*`,
          from: sql`FROM organizations o JOIN members m ON m.organization_id = o.id`,
          where: [sql`m.user_id = ${userId}`],
          keyset: { value: "o.created_at", id: "o.id" },
          order: "asc",
          page,
          toItem: toOrganization,
          keysetOf: (organization) => [organization.createdAt.getTime(), organization.id]
        }),
      findByEmailDomain: (domain) =>
        sql<OrganizationRow>`SELECT * FROM organizations WHERE email_domains @> ARRAY[${domain}::text]
          ORDER BY created_at, id`.pipe(Effect.map((rows) => rows.map(toOrganization)), Effect.orDie)
    })
  })
)
