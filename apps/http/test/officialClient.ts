import * as HttpServer from "@effect/platform/HttpServer"
import { GitBookAPI } from "@gitbook/api"
// The package's own declarations import "./client" without an extension, which NodeNext cannot follow:
// its client class is named here so that every call through it is checked against GitBook's types.
import type { Api } from "@gitbook/api/client"
import { Effect } from "effect"
import { checkedFetch } from "./conformance.js"

/**
 * GitBook's official client (`@gitbook/api`) of the test server, as `token`. At run time it is that
 * class; only its declared type is lost on the way. Its requests go through the conformance check,
 * as the harness's do.
 */
export const clientFor = (token: string) =>
  Effect.gen(function*() {
    const address = (yield* HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP server")
    return new GitBookAPI({
      endpoint: `http://127.0.0.1:${address.port}`,
      authToken: token,
      serviceBinding: { fetch: checkedFetch }
    }) as unknown as Api<{ readonly authToken?: string }>
  })
