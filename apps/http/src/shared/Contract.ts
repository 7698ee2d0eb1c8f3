import { HttpApi } from "@effect/platform"
import { Schema } from "effect"

/**
 * The API every context's groups belong to, declaring no errors of its own. `HttpApi.make` declares
 * its HttpApiDecodeError on every endpoint; ours answer input that does not decode with Error400
 * (the server's ErrorBodies), which each endpoint that decodes input declares.
 */
export const OctavoBase: HttpApi.HttpApi<"octavo"> = Object.assign(HttpApi.make("octavo"), {
  errorSchema: Schema.Never
}) as unknown as HttpApi.HttpApi<"octavo">
