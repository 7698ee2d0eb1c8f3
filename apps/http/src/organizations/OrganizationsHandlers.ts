import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { organizationListKey, Organizations } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { OrganizationsApi } from "./OrganizationsApi.js"
import { presentOrganization, presentVisitorClaims } from "./Present.js"

export const OrganizationsLive = HttpApiBuilder.group(
  OctavoBase.add(OrganizationsApi),
  "organizations",
  (handlers) =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const present = presentOrganization(yield* PublicUrl)
      return handlers
        .handle("list", ({ urlParams }) => listOf(organizationListKey(), urlParams, organizations.listMine, present))
        .handle("create", ({ payload }) => domain(organizations.create(payload)).pipe(Effect.flatMap(createdAs(present))))
        .handle("get", ({ path }) => domain(organizations.get(path.organizationId)).pipe(Effect.map(present)))
        .handle("update", ({ path, payload }) => domain(organizations.update(path.organizationId, payload)).pipe(Effect.map(present)))
        .handle(
          "byEmailDomain",
          ({ path }) =>
            domain(organizations.byEmailDomain(path.emailDomain)).pipe(Effect.map((views) => ({ organizations: views.map(present) })))
        )
        .handle("ping", ({ path }) => domain(organizations.ping(path.organizationId)).pipe(Effect.map(presentVisitorClaims)))
    })
)
