import { type BodyLimit, OctavoBase } from "../shared/Contract.js"
import { IntegrationsApi } from "./IntegrationsApi.js"
import { IntegrationsLive } from "./IntegrationsHandlers.js"

/** Integrations over HTTP: publishing, listing and installing them. */
export const IntegrationsGroups = OctavoBase.add(IntegrationsApi)
export const IntegrationsHandlers = IntegrationsLive

/** Publishing takes a script of up to 5 MiB with its images and secrets: its body may be this large, any other 2 MiB. */
export const PUBLISH_MAX_BODY_BYTES = 16 * 1024 * 1024

/** The routes whose bodies may be larger than the server's default, with their limits. */
export const largeBodyRoutes: ReadonlyArray<BodyLimit> = [
  { method: "POST", path: /^\/v1\/integrations\/[^/?]+$/, maxBytes: PUBLISH_MAX_BODY_BYTES }
]

/** The integrations context's part of the HTTP API (the list in ../Contexts.ts). */
export const IntegrationsHttp = {
  groups: IntegrationsGroups,
  handlers: IntegrationsHandlers,
  bodyLimits: largeBodyRoutes
}
