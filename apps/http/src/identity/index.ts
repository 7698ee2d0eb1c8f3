import { OctavoBase } from "../shared/Contract.js"
import { UsersApi } from "./UsersApi.js"
import { UsersLive } from "./UsersHandlers.js"

/** Identity over HTTP: users and their API tokens. */
export const IdentityGroups = OctavoBase.add(UsersApi)
export const IdentityHandlers = UsersLive

/** The identity context's part of the HTTP API (the list in ../Contexts.ts). */
export const IdentityHttp = {
  groups: IdentityGroups,
  handlers: IdentityHandlers
}
