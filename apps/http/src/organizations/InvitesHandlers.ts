import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { inviteListKey, Invites } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { created, listOf, PublicUrl } from "../shared/Handlers.js"
import { InvitesApi } from "./InvitesApi.js"
import { inviteLocation, presentInvite, presentInvitedByEmail } from "./Present.js"

export const InvitesLive = HttpApiBuilder.group(OctavoBase.add(InvitesApi), "invites", (handlers) =>
  Effect.gen(function*() {
    const invites = yield* Invites
    const base = yield* PublicUrl
    return handlers
      .handle("list", ({ path, urlParams }) =>
        listOf(inviteListKey(path.organizationId), urlParams, (page) =>
          invites.list(path.organizationId, page), presentInvite))
      .handle("create", ({ path, payload }) =>
        domain(invites.create(path.organizationId, payload.role)).pipe(Effect.flatMap((invite) =>
          created(inviteLocation(base, invite), presentInvite(invite))
        )))
      .handle("get", ({ path }) =>
        domain(invites.get(path.organizationId, path.inviteId)).pipe(Effect.map(presentInvite)))
      .handle("remove", ({ path }) =>
        domain(invites.remove(path.organizationId, path.inviteId)))
      .handle("update", ({ path, payload }) =>
        domain(invites.updateRole(path.organizationId, path.inviteId, "role" in payload ? payload.role : payload.level)).pipe(
          Effect.map(presentInvite)
        ))
      .handle("join", ({ path }) =>
        domain(invites.join(path.organizationId, path.inviteId)).pipe(Effect.as({})))
      .handle("byEmail", ({ path, payload }) =>
        domain(invites.inviteByEmail(path.organizationId, payload)).pipe(Effect.map(presentInvitedByEmail)))
  }))
