import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as HttpClient from "@effect/platform/HttpClient"
import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClient, PgStorage, withSearchPath } from "@octavo/adapters-pg"
import { describe, expect, layer } from "@effect/vitest"
import { MAX_SPEC_BYTES, type StoragePorts } from "@octavo/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Duration, Effect, Layer } from "effect"
import { MAX_BODY_BYTES } from "../src/Server.js"
import { MAX_SPEC_BODY_BYTES } from "../src/openapi/index.js"
import { type Answer, call, testServer } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { newUser, world } from "./scenario.js"

// OpenAPI specs over HTTP (conventions-2.md §5, decisions 6 and 12): texts processed in the request,
// URLs fetched by the worker from a loopback server, versions, limits at their edges, access; on every
// storage, and two servers sharing one PostgreSQL server's jobs. Answers are checked against GitBook's schema.

const specText = (title: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: "3.1.0", info: { title, version: "1.0.0" }, paths: {}, ...extra })

const yamlText = "# Pets\r\nopenapi: 3.0.3\r\ninfo:\r\n  title: Pets\r\n  version: '2'\r\npaths: {}\r\n"

/** A JSON spec of exactly `bytes` bytes of UTF-8, padded in an extension field. */
const specOfSize = (bytes: number) => {
  const empty = specText("Big", { "x-pad": "" })
  return specText("Big", { "x-pad": "a".repeat(bytes - empty.length) })
}

/** The loopback web the worker fetches from: texts by name, how often each was fetched, and some bad answers. */
const specOrigin = (delayMs = 0) =>
  Effect.acquireRelease(
    Effect.async<
      { readonly origin: string; readonly server: http.Server; readonly texts: Map<string, string>; readonly fetches: Map<string, number> }
    >(
      (resume) => {
        const texts = new Map<string, string>()
        const fetches = new Map<string, number>()
        const server = http.createServer((request, response) => {
          const path = request.url ?? "/"
          fetches.set(path, (fetches.get(path) ?? 0) + 1)
          // Never answers: the fetch times out.
          if (path === "/hang") return
          if (path === "/big") return void response.end("a".repeat(MAX_SPEC_BYTES + 1))
          if (path === "/to-private") return void response.writeHead(302, { location: "http://192.168.0.10/spec.json" }).end()
          const text = texts.get(path)
          setTimeout(() => {
            if (text === undefined) response.writeHead(404).end("not here")
            else response.writeHead(200, { "content-type": "application/json" }).end(text)
          }, delayMs)
        })
        server.listen(0, "127.0.0.1", () =>
          resume(Effect.succeed({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, texts, fetches })))
      }
    ),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() =>
          resume(Effect.void)
        )
      })
  )

/** The spec once the worker has recorded an outcome. */
const completed = (path: string, token: string) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 1500; attempt++) {
      const answer = yield* call("GET", path, { token })
      if (answer.body.processingState === "complete") return answer.body
      yield* Effect.sleep(Duration.millis(20))
    }
    throw new Error(`${path} was not processed within 30 s`)
  })

const expectError = (answer: Answer, status: number, message: string | RegExp) =>
  expect([answer.status, answer.body]).toEqual([
    status,
    { error: { code: status, message: typeof message === "string" ? message : expect.stringMatching(message) } }
  ])

const storages: ReadonlyArray<readonly [string, () => Layer.Layer<StoragePorts, unknown>]> = [
  ["memory", () => MemoryStorage],
  ["PGlite", () => PgStorage.pipe(Layer.provide(PgliteClient()))],
  ...(process.env["OCTAVO_TEST_DATABASE_URL"]
    ? [
      [
        "PostgreSQL",
        () => PgStorage.pipe(Layer.provide(freshSchema(process.env["OCTAVO_TEST_DATABASE_URL"]!)))
      ] as const
    ]
    : [])
]

/** A new, empty schema of the PostgreSQL server, dropped at the end: several servers may share it. */
const freshSchema = (url: string) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const schema = `openapi_${Math.random().toString(36).slice(2, 10)}`
    const admin = (statement: string) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(Effect.provide(PgServerClient(url)), Effect.orDie)
    yield* Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () => admin(`DROP SCHEMA ${schema} CASCADE`))
    return PgServerClient(withSearchPath(url, schema))
  }))

for (const [name, storage] of storages) {
  layer(testServer(storage(), { fetch: { allow: ["loopback"], timeoutMs: 500 } }), { excludeTestServices: true, timeout: 120_000 })(
    `OpenAPI specs over HTTP (${name})`,
    (it) => {
      it.effect("texts in JSON and YAML: created at once with Location, the raw text byte for byte, a version only when it changes", () =>
        Effect.gen(function*() {
          const w = yield* world
          const specs = `/v1/orgs/${w.organizationId}/openapi`
          const token = w.alice.token
          const created = yield* call("POST", specs, { token, body: { slug: "pets", source: { text: specText("Pets") } } })
          expect(created.status).toBe(201)
          expect(created.body).toMatchObject({
            object: "openapi-spec",
            slug: "pets",
            processingState: "complete",
            lastProcessedErrorCount: 0,
            permissions: { view: true, edit: true },
            urls: { location: `https://docs.test${specs}/pets` }
          })
          expect(created.headers["location"]).toBe(created.body.urls.location)
          expect(created.body.sourceURL).toBeUndefined()
          const first = created.body.lastVersion as string
          expect(yield* call("GET", `${specs}/pets/versions/latest/content/raw`, { token })).toMatchObject({
            status: 200,
            body: { text: specText("Pets"), format: "json" }
          })

          const same = yield* call("PUT", `${specs}/pets`, { token, body: { source: { text: specText("Pets") } } })
          expect([same.status, same.body.lastVersion, same.headers["location"]]).toEqual([200, first, undefined])
          const yaml = yield* call("PUT", `${specs}/pets`, { token, body: { source: { text: yamlText } } })
          expect(yaml.status).toBe(200)
          expect(yaml.body.lastVersion).not.toBe(first)
          expect((yield* call("GET", `${specs}/pets/versions/latest/content/raw`, { token })).body).toEqual({
            text: yamlText,
            format: "yaml"
          })

          const versions = yield* call("GET", `${specs}/pets/versions?limit=1`, { token })
          expect(versions.body).toMatchObject({ count: 2, items: [{ object: "openapi-spec-version", id: yaml.body.lastVersion }] })
          const rest = yield* call("GET", `${specs}/pets/versions?limit=1&page=${versions.body.next.page}`, { token })
          expect([rest.body.items.map((v: { id: string }) => v.id), rest.body.next]).toEqual([[first], undefined])
          const latest = yield* call("GET", `${specs}/pets/versions/latest`, { token })
          expect(latest.body).toMatchObject({
            id: yaml.body.lastVersion,
            urls: { location: `https://docs.test${specs}/pets/versions/${yaml.body.lastVersion}` }
          })
          expect((yield* call("GET", `${specs}/pets/versions/${first}`, { token })).body.id).toBe(first)
          expectError(yield* call("GET", `${specs}/pets/versions/nope`, { token }), 404, "OpenAPI spec version nope was not found")

          // A PUT under an unknown slug creates; a POST under a taken one is a conflict.
          const put = yield* call("PUT", `${specs}/orders`, { token, body: { source: { text: specText("Orders") } } })
          expect([put.status, put.headers["location"]]).toEqual([201, `https://docs.test${specs}/orders`])
          expectError(
            yield* call("POST", specs, { token, body: { slug: "orders", source: { text: specText("Orders") } } }),
            409,
            "An OpenAPI spec with the slug orders exists already"
          )
          const listed = yield* call("GET", `${specs}?limit=1`, { token })
          expect([listed.body.count, listed.body.items[0].slug]).toEqual([2, "pets"])
          expect((yield* call("DELETE", `${specs}/orders`, { token })).status).toBe(204)
          expectError(yield* call("GET", `${specs}/orders`, { token }), 404, "OpenAPI spec orders was not found")
          expectError(yield* call("GET", `${specs}/orders/versions`, { token }), 404, "OpenAPI spec orders was not found")
        }))

      it.effect("bad input is 400 and changes nothing: slug and URL at their edges, one source, visibility, invalid documents", () =>
        Effect.gen(function*() {
          const origin = yield* specOrigin()
          const w = yield* world
          const specs = `/v1/orgs/${w.organizationId}/openapi`
          const token = w.alice.token
          const post = (body: unknown) => call("POST", specs, { token, body })
          const text = specText("Pets")
          expect((yield* post({ slug: "a".repeat(100), source: { text } })).status).toBe(201)
          expectError(yield* post({ slug: "a".repeat(101), source: { text } }), 400, "slug: must be at most 100 characters, got 101")
          expectError(yield* post({ slug: "Pets", source: { text } }), 400, /^slug: must be lower-case letters and digits/)
          const url2048 = `${origin.origin}/${"u".repeat(2048 - origin.origin.length - 1)}`
          expect((yield* post({ slug: "edge", source: { url: url2048 } })).status).toBe(201)
          const tooLong = "source.url: must be an http or https URL of at most 2048 characters"
          expectError(yield* post({ slug: "over", source: { url: `${url2048}u` } }), 400, tooLong)
          expectError(yield* post({ slug: "ftp", source: { url: "ftp://127.0.0.1/spec.json" } }), 400, tooLong)
          expectError(
            yield* post({ slug: "private", source: { url: "http://10.0.0.7/spec.json" } }),
            400,
            "source.url: the address 10.0.0.7 is a private network address, which this server may not fetch"
          )
          expectError(
            yield* post({ slug: "both", source: { url: `${origin.origin}/a`, text } }),
            400,
            "source: must have exactly one of url and text"
          )
          expectError(yield* post({ slug: "none" }), 400, /^source: /)
          expectError(yield* post({ slug: "empty", source: { text: "" } }), 400, "source.text: must not be empty")
          expectError(
            yield* post({ slug: "public", source: { text }, visibility: "public" }),
            400,
            "visibility: is not supported: an OpenAPI spec is visible to its organization's members only"
          )
          expectError(
            yield* post({ slug: "invalid", source: { text: "openapi: 3.1.0\ninfo: {title: T}\n" } }),
            400,
            "source.text: is not a valid OpenAPI document: info.version: is required; paths: is required (or webhooks or components, in OpenAPI 3.1)"
          )
          // A node that 100 aliases share is judged once: one error for its one bad $ref, not one per alias.
          const shared = `shared: &s [{$ref: '#/nowhere'}]\n${Array.from({ length: 99 }, (_, i) => `use${i}: *s`).join("\n")}`
          expectError(
            yield* post({ slug: "aliases", source: { text: `openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n${shared}\n` } }),
            400,
            "source.text: is not a valid OpenAPI document: $ref \"#/nowhere\" at /shared/0 does not resolve"
          )
          // An invalid text on an existing spec leaves it as it was.
          const edge = `${specs}/${"a".repeat(100)}`
          expectError(
            yield* call("PUT", edge, { token, body: { source: { text: "{\"openapi\": \"3.1.0\"," } } }),
            400,
            /^source\.text: is not a valid OpenAPI document: JSON: /
          )
          expect((yield* call("GET", `${edge}/versions/latest/content/raw`, { token })).body.text).toBe(text)
          expectError(yield* call("PUT", `${specs}/Bad_Slug`, { token, body: { source: { text } } }), 400, /^specSlug: must be lower-case/)
          expectError(
            yield* call("PUT", `${specs}/${"a".repeat(101)}`, { token, body: { source: { text } } }),
            400,
            "specSlug: must be at most 100 characters, got 101"
          )
          const listed = yield* call("GET", specs, { token })
          expect(listed.body.items.map((s: { slug: string }) => s.slug)).toEqual(["a".repeat(100), "edge"])
        }).pipe(Effect.scoped))

      it.effect(
        "a text of 10 MiB passes and one byte more is 400; the body limit is raised for these routes only",
        () =>
          Effect.gen(function*() {
            const w = yield* world
            const specs = `/v1/orgs/${w.organizationId}/openapi`
            const token = w.alice.token
            const most = specOfSize(MAX_SPEC_BYTES)
            const made = yield* call("PUT", `${specs}/big`, { token, body: { source: { text: most } } })
            expect([made.status, made.body.processingState]).toEqual([201, "complete"])
            expectError(
              yield* call("PUT", `${specs}/big`, { token, body: { source: { text: specOfSize(MAX_SPEC_BYTES + 1) } } }),
              400,
              `source.text: must be at most ${MAX_SPEC_BYTES} bytes (10 MiB) of UTF-8, got ${MAX_SPEC_BYTES + 1}`
            )
            const raw = yield* call("GET", `${specs}/big/versions/latest/content/raw`, { token })
            expect(raw.body.text === most).toBe(true)
            // Escaping doubles a text of quotes: 10 MiB of YAML still fits the raised limit.
            const head = "openapi: 3.1.0\ninfo: {title: Quotes, version: '1'}\npaths: {}\n# "
            const quotes = `${head}${"\"".repeat(MAX_SPEC_BYTES - head.length - 1)}\n`
            const body = JSON.stringify({ source: { text: quotes } })
            expect(body.length).toBeGreaterThan(2 * MAX_SPEC_BYTES - head.length)
            expect(body.length).toBeLessThanOrEqual(MAX_SPEC_BODY_BYTES)
            expect((yield* call("PUT", `${specs}/lines`, { token, rawBody: body })).status).toBe(201)
            expectError(
              yield* call("PUT", `${specs}/lines`, { token, rawBody: `${body}${" ".repeat(MAX_SPEC_BODY_BYTES - body.length + 1)}` }),
              413,
              `The body is over the limit of ${MAX_SPEC_BODY_BYTES} bytes`
            )
            // Elsewhere the server's own limit holds.
            expectError(
              yield* call("POST", "/v1/orgs", { token, rawBody: JSON.stringify({ title: "a".repeat(MAX_BODY_BYTES) }) }),
              413,
              `The body is over the limit of ${MAX_BODY_BYTES} bytes`
            )
          }),
        120_000
      )

      it.effect("URLs: pending, then fetched by the worker; a version only when the content changes; the same URL fetches again", () =>
        Effect.gen(function*() {
          const origin = yield* specOrigin()
          const w = yield* world
          const spec = `/v1/orgs/${w.organizationId}/openapi/pets`
          const token = w.alice.token
          const url = `${origin.origin}/pets.json`
          const text = `${specText("Pets")}\n`
          origin.texts.set("/pets.json", text)
          const created = yield* call("PUT", spec, { token, body: { source: { url } } })
          expect(created.status).toBe(201)
          expect(created.body).toMatchObject({ processingState: "pending", sourceURL: url })
          const done = yield* completed(spec, token)
          expect(done.lastProcessErrorCode).toBeUndefined()
          expect(origin.fetches.get("/pets.json")).toBe(1)
          expect((yield* call("GET", `${spec}/versions/latest/content/raw`, { token })).body).toEqual({ text, format: "json" })
          expect((yield* call("GET", `${spec}/versions/latest`, { token })).body.url).toBe(url)

          const again = yield* call("PUT", spec, { token, body: { source: { url } } })
          expect([again.status, again.body.processingState]).toEqual([200, "pending"])
          expect((yield* completed(spec, token)).lastVersion).toBe(done.lastVersion)
          expect(origin.fetches.get("/pets.json")).toBe(2)

          origin.texts.set("/pets.json", specText("Pets v2"))
          yield* call("PUT", spec, { token, body: { source: { url } } })
          const changed = yield* completed(spec, token)
          expect(changed.lastVersion).not.toBe(done.lastVersion)
          expect((yield* call("GET", `${spec}/versions`, { token })).body.items.map((v: { id: string }) => v.id)).toEqual([
            changed.lastVersion,
            done.lastVersion
          ])
        }).pipe(Effect.scoped))

      it.effect("URL failures end complete with their code and keep the last good version", () =>
        Effect.gen(function*() {
          const origin = yield* specOrigin()
          const w = yield* world
          const spec = `/v1/orgs/${w.organizationId}/openapi/pets`
          const token = w.alice.token
          const good = (yield* call("PUT", spec, { token, body: { source: { text: specText("Pets") } } })).body.lastVersion
          origin.texts.set("/broken.yaml", "openapi: 3.1.0\ninfo: [\n")
          // The spec's code, and each error's own.
          const cases: ReadonlyArray<readonly [string, string, string, RegExp]> = [
            ["/hang", "FETCH_TIMEOUT", "FETCH_TIMEOUT", /: no answer within 500 ms$/],
            ["/big", "FETCH_ERROR", "FETCH_ERROR", new RegExp(`: the answer is larger than ${MAX_SPEC_BYTES} bytes$`)],
            [
              "/to-private",
              "FETCH_ERROR",
              "FETCH_ERROR",
              /is a private network address, which this server may not fetch \(after a redirect to http:\/\/192\.168\.0\.10\/spec\.json\)$/
            ],
            ["/missing", "FETCH_ERROR", "FETCH_ERROR", /: the server answered with status 404$/],
            ["/broken.yaml", "PARSE_ERROR", "INVALID_SYNTAX", /^YAML: /]
          ]
          for (const [path, code, errorCode, message] of cases) {
            yield* call("PUT", spec, { token, body: { source: { url: `${origin.origin}${path}` } } })
            const failed = yield* completed(spec, token)
            expect([path, failed.lastProcessErrorCode, failed.lastVersion, failed.lastProcessedErrorCount]).toEqual([path, code, good, 1])
            expect(failed.lastProcessedErrors).toEqual([{ code: errorCode, message: expect.stringMatching(message) }])
            expect(failed.lastProcessedAt).toEqual(expect.any(String))
          }
          expect((yield* call("GET", `${spec}/versions/latest/content/raw`, { token })).body.text).toBe(specText("Pets"))
        }).pipe(Effect.scoped))

      it.effect("access: 401 without a token; non-members and other organizations 404; read reads, create writes, below is 403", () =>
        Effect.gen(function*() {
          const w = yield* world
          const specs = `/v1/orgs/${w.organizationId}/openapi`
          const body = { source: { text: specText("Pets") } }
          expect((yield* call("PUT", `${specs}/pets`, { token: w.alice.token, body })).status).toBe(201)
          expect((yield* call("GET", `${specs}/pets`)).status).toBe(401)
          expect((yield* call("GET", `${specs}/pets`, { token: "nope" })).status).toBe(401)
          expectError(yield* call("GET", `${specs}/pets`, { token: w.carol.token }), 404, `organization ${w.organizationId} was not found`)
          expectError(
            yield* call("PUT", `${specs}/pets`, { token: w.carol.token, body }),
            404,
            `organization ${w.organizationId} was not found`
          )
          // Bob edits, which is below create: he reads, and may not write.
          const read = yield* call("GET", `${specs}/pets`, { token: w.bob.token })
          expect([read.status, read.body.permissions]).toEqual([200, { view: true, edit: false }])
          expectError(
            yield* call("PUT", `${specs}/pets`, { token: w.bob.token, body }),
            403,
            "You may not create or update OpenAPI specs: it requires the create role"
          )
          expectError(
            yield* call("DELETE", `${specs}/pets`, { token: w.bob.token }),
            403,
            "You may not delete OpenAPI specs: it requires the create role"
          )
          expectError(
            yield* call("GET", `${specs}/pets/versions/latest`, { token: w.guest.token }),
            403,
            "You may not read OpenAPI specs: it requires the read role"
          )
          // The same slug through Carol's organization is hers: a PUT there creates her own, and Alice's stays.
          const hers = `/v1/orgs/${w.otherOrganizationId}/openapi/pets`
          expectError(yield* call("GET", hers, { token: w.carol.token }), 404, "OpenAPI spec pets was not found")
          expect((yield* call("PUT", hers, { token: w.carol.token, body: { source: { text: specText("Hers") } } })).status).toBe(201)
          expect((yield* call("GET", `${specs}/pets/versions/latest/content/raw`, { token: w.alice.token })).body.text).toBe(
            specText("Pets")
          )
        }))
    }
  )
}

layer(testServer(MemoryStorage), { excludeTestServices: true })("OpenAPI specs through GitBook's official client", (it) => {
  it.effect("without OCTAVO_IMPORT_ALLOW, a URL whose host resolves to loopback is refused at request time", () =>
    Effect.gen(function*() {
      const admin = yield* newUser("Lou Loopback")
      const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
      const answer = yield* call("POST", `/v1/orgs/${organizationId}/openapi`, {
        token: admin.token,
        body: { slug: "local", source: { url: "http://localhost:9/spec.json" } }
      })
      expectError(
        answer,
        400,
        /^source\.url: the address (127\.0\.0\.1|::1) of localhost is a loopback address, which this server may not fetch$/
      )
      expect((yield* call("GET", `/v1/orgs/${organizationId}/openapi`, { token: admin.token })).body.count).toBe(0)
    }))

  it.effect("create, create or update, read, list, versions, the raw content, delete", () =>
    Effect.gen(function*() {
      const admin = yield* newUser("Ada Specs")
      const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
      const client = yield* clientFor(admin.token)
      const run = <A>(request: () => Promise<A>) => Effect.promise(request)
      const created = yield* run(() => client.orgs.createOpenApiSpec(organizationId, { slug: "pets", source: { text: specText("Pets") } }))
      expect([created.status, created.data.slug, created.data.processingState]).toEqual([201, "pets", "complete"])
      const put = yield* run(() => client.orgs.createOrUpdateOpenApiSpecBySlug(organizationId, "orders", { source: { text: yamlText } }))
      expect(put.status).toBe(201)
      const updated = yield* run(() =>
        client.orgs.createOrUpdateOpenApiSpecBySlug(organizationId, "orders", { source: { text: specText("Orders") } })
      )
      expect([updated.status, updated.data.lastVersion === put.data.lastVersion]).toEqual([200, false])
      expect((yield* run(() => client.orgs.getOpenApiSpecBySlug(organizationId, "pets"))).data.id).toBe(created.data.id)
      expect((yield* run(() => client.orgs.listOpenApiSpecs(organizationId))).data.items.map((s) => s.slug)).toEqual(["pets", "orders"])
      const versions = (yield* run(() => client.orgs.listOpenApiSpecVersions(organizationId, "orders"))).data
      expect(versions.items.map((v) => v.id)).toEqual([updated.data.lastVersion, put.data.lastVersion])
      expect((yield* run(() => client.orgs.getLatestOpenApiSpecVersion(organizationId, "orders"))).data.id).toBe(updated.data.lastVersion)
      const byId = yield* run(() => client.orgs.getOpenApiSpecVersionById(organizationId, "orders", put.data.lastVersion!))
      expect(byId.data.id).toBe(put.data.lastVersion)
      const raw = yield* run(() => client.orgs.getLatestOpenApiSpecVersionContentRaw(organizationId, "orders"))
      expect(raw.data).toEqual({ text: specText("Orders"), format: "json" })
      expect((yield* run(() => client.orgs.deleteOpenApiSpecBySlug(organizationId, "pets"))).status).toBe(204)
    }))
})

const databaseUrl = process.env["OCTAVO_TEST_DATABASE_URL"]
if (databaseUrl !== undefined && databaseUrl !== "") {
  describe("two servers on one PostgreSQL server", () => {
    layer(Layer.empty, { excludeTestServices: true, timeout: 120_000 })("share the jobs", (it) => {
      it.effect("a burst of 50 URL specs, sent to both, is fetched exactly once each", () =>
        Effect.gen(function*() {
          // Each answer takes a while, so both servers' workers are busy at once.
          const origin = yield* specOrigin(25)
          const schema = `openapi_${Math.random().toString(36).slice(2, 10)}`
          const admin = (statement: string) =>
            Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
              Effect.provide(PgServerClient(databaseUrl)),
              Effect.orDie
            )
          yield* Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () => admin(`DROP SCHEMA ${schema} CASCADE`))
          const server = (id: string) =>
            Effect.map(
              Layer.build(testServer(PgStorage.pipe(Layer.provide(PgServerClient(withSearchPath(databaseUrl, schema)))), {
                fetch: { allow: ["loopback"] }
              })),
              (context) => ({ id, client: Context.get(context, HttpClient.HttpClient) })
            )
          const [a, b] = [yield* server("a"), yield* server("b")]
          const on = <A, E>(which: typeof a, effect: Effect.Effect<A, E, HttpClient.HttpClient>) =>
            Effect.provideService(effect, HttpClient.HttpClient, which.client)
          // Users and tokens are in the shared database: one server makes them, both know them.
          const alice = yield* on(a, newUser("Alice Burst"))
          const organizationId = (yield* on(a, call("POST", "/v1/orgs", { token: alice.token, body: { title: "Burst" } }))).body
            .id as string
          const specs = `/v1/orgs/${organizationId}/openapi`
          yield* Effect.forEach(Array.from({ length: 50 }, (_, i) => i), (i) => {
            origin.texts.set(`/burst/${i}.json`, specText(`Burst ${i}`))
            return Effect.flatMap(
              on(
                i % 2 === 0 ? a : b,
                call("POST", specs, {
                  token: alice.token,
                  body: { slug: `burst-${i}`, source: { url: `${origin.origin}/burst/${i}.json` } }
                })
              ),
              (answer) => Effect.sync(() => expect(answer.status).toBe(201))
            )
          }, { concurrency: 10 })
          for (let i = 0; i < 50; i++) {
            const done = yield* on(i % 2 === 0 ? b : a, completed(`${specs}/burst-${i}`, alice.token))
            expect([i, done.lastProcessErrorCode, typeof done.lastVersion]).toEqual([i, undefined, "string"])
          }
          const counts = Array.from({ length: 50 }, (_, i) => origin.fetches.get(`/burst/${i}.json`))
          expect(counts).toEqual(Array.from({ length: 50 }, () => 1))
          const listed = yield* on(b, call("GET", `${specs}?limit=100`, { token: alice.token }))
          expect([listed.body.count, listed.body.items.every((s: { processingState: string }) => s.processingState === "complete")])
            .toEqual([50, true])
        }).pipe(Effect.scoped))
    })
  })
}
