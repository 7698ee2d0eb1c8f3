import { OctavoBase } from "../shared/Contract.js"
import { HealthApi } from "./HealthApi.js"
import { HealthLive } from "./HealthHandlers.js"

/** Liveness and readiness, outside the bounded contexts. */
export const HealthGroups = OctavoBase.add(HealthApi)
export const HealthHandlers = HealthLive

/** The health context's part of the HTTP API (the list in ../Contexts.ts). */
export const HealthHttp = {
  groups: HealthGroups,
  handlers: HealthHandlers
}
