import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Schema } from "effect"

const Status = Schema.Struct({ status: Schema.Literal("ok") })

/** Liveness and readiness, without authentication, for orchestrators and load balancers. */
export class HealthApi extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("live", "/healthz").addSuccess(Status))
  .add(HttpApiEndpoint.get("ready", "/readyz").addSuccess(Status))
{}
