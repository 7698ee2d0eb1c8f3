import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { PgliteClient, PgStorage } from "@octavo/adapters-pg"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { clientOf, heavyOperations, startWorld, type Watch, watch } from "../bench/heavyWork.js"
import { makeNodeServer } from "../src/NodeServer.js"
import { makeHttpApp } from "../src/Server.js"
import { ADMIN_TOKEN, PUBLIC_URL, serverOrigin } from "./harness.js"

// The event-loop watchdog (issue 38): the largest accepted input of each operation whose cost grows with its input
// (bench/heavyWork.ts: a 2,000-page Git import, a 1 MB page as ?format=document, a 10 MiB OpenAPI text, a 100-page
// website import, the merge of a 5,000-page change request) runs on the embedded default (PGlite) behind the server
// main.ts starts, while another thread asks /healthz back to back on one kept-alive connection. No check may wait more
// than WORST_MS, and none may fail (a kept-alive connection reset while the server was busy was one such failure).
// `pnpm bench:eventloop` prints the same figures from a built server in its own process (goal: 100 ms).

const WORST_MS = 250

const server = makeHttpApp(PgStorage.pipe(Layer.provide(PgliteClient())), {
  publicUrl: PUBLIC_URL,
  adminToken: ADMIN_TOKEN,
  fetch: { allow: ["loopback"] },
  rateLimit: { perToken: 1_000_000, perAddress: 1_000_000 },
  // A loaded CI machine reads a 10 MiB specification slowly: the parse's own time limit is not what is tested here.
  parse: { timeoutMs: 300_000 }
}).pipe(
  Layer.provideMerge(
    NodeHttpServer.layer(() => makeNodeServer({ requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000, maxConnectionsPerAddress: 0 }), {
      port: 0,
      host: "127.0.0.1"
    })
  ),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

layer(server, { excludeTestServices: true, timeout: 120_000 })("heavy work and the event loop", (it) => {
  it.scoped(
    `no health check waits more than ${WORST_MS} ms, and none fails, while each heavy operation runs`,
    () =>
      Effect.gen(function*() {
        const base = yield* serverOrigin
        const world = yield* Effect.acquireRelease(Effect.promise(startWorld), (w) => Effect.promise(w.close))
        const client = clientOf(base, ADMIN_TOKEN)
        const organization = yield* Effect.promise(() => client.call("POST", "/v1/orgs", { title: "Heavy work" }))
        const seen: Array<readonly [string, Watch]> = []
        for (const operation of heavyOperations) {
          const once = Effect.flatMap(
            Effect.promise(() => operation.prepare(client, world, organization.id)),
            (run) => Effect.promise(() => watch(base, run))
          )
          // CI runs test files side by side on two cores: a check another process delayed is told apart from a stall
          // of the server's own making by running the operation once more, since the server's stalls repeat.
          const first = yield* once
          seen.push([operation.name, first.worst > WORST_MS && first.failures.length === 0 ? yield* once : first])
        }
        const summary = seen.map(([name, w]) => ({
          name,
          waitedTooLong: w.worst > WORST_MS ? `${w.worst.toFixed(0)} ms` : false,
          failures: w.failures
        }))
        expect(summary).toEqual(heavyOperations.map(({ name }) => ({ name, waitedTooLong: false, failures: [] })))
        // Each operation did its work, and was watched while it did.
        expect(seen.every(([, w]) => w.checks >= 3)).toBe(true)
      }),
    900_000
  )
})
