import { HttpApiBuilder } from "@effect/platform"
import { Organizations } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { created, domain, listOf, presentOrganization, PublicUrl } from "../Present.js"

export const OrganizationsLive = HttpApiBuilder.group(OctavoApi, "organizations", (handlers) =>
  Effect.gen(function*() {
    const organizations = yield* Organizations
    const present = presentOrganization(yield* PublicUrl)
    return handlers
      .handle("list", ({ urlParams }) => listOf("orgs", urlParams, organizations.listMine, present))
      .handle("create", ({ payload }) =>
        domain(organizations.create(payload)).pipe(Effect.flatMap((view) => {
          const body = present(view)
          return created(body.urls.location, body)
        })))
      .handle("get", ({ path }) => domain(organizations.get(path.organizationId)).pipe(Effect.map(present)))
      .handle("update", ({ path, payload }) =>
        domain(organizations.update(path.organizationId, payload)).pipe(Effect.map(present)))
      .handle("byEmailDomain", ({ path }) =>
        domain(organizations.byEmailDomain(path.emailDomain)).pipe(
          Effect.map((views) => ({ organizations: views.map(present) }))
        ))
      .handle("ping", ({ path }) =>
        domain(organizations.ping(path.organizationId)).pipe(Effect.map((seen) => ({
          serviceVisitorClaims: JSON.stringify({
            organization: seen.organizationId,
            user: seen.userId,
            role: seen.role,
            seenAt: seen.seenAt.toISOString()
          })
        }))))
  }))
