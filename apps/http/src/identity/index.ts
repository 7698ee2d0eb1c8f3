import { OctavoBase } from "../shared/Contract.js"
import { UsersApi } from "./UsersApi.js"
import { UsersLive } from "./UsersHandlers.js"

/** Identity over HTTP: users and their API tokens. */
export const IdentityGroups = OctavoBase.add(UsersApi)
export const IdentityHandlers = UsersLive
