import { Layer } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { InvitesApi } from "./InvitesApi.js"
import { InvitesLive } from "./InvitesHandlers.js"
import { MembersApi } from "./MembersApi.js"
import { MembersLive } from "./MembersHandlers.js"
import { OrganizationsApi } from "./OrganizationsApi.js"
import { OrganizationsLive } from "./OrganizationsHandlers.js"
import { TeamsApi } from "./TeamsApi.js"
import { TeamsLive } from "./TeamsHandlers.js"

/** Organizations over HTTP: organizations, their members, teams and invites. */
export const OrganizationsGroups = OctavoBase.add(OrganizationsApi).add(MembersApi).add(TeamsApi).add(InvitesApi)
export const OrganizationsHandlers = Layer.mergeAll(OrganizationsLive, MembersLive, TeamsLive, InvitesLive)

/** The organizations context's part of the HTTP API (the list in ../Contexts.ts). */
export const OrganizationsHttp = {
  groups: OrganizationsGroups,
  handlers: OrganizationsHandlers
}
