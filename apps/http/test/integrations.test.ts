import { randomBytes } from "node:crypto"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import { IntegrationScope, type StoragePorts } from "@octavo/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { makeHttpApp } from "../src/Server.js"
import { ADMIN_TOKEN, type Answer, call, PUBLIC_URL } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { addMember, newUser, type TestUser } from "./scenario.js"

// Integrations over HTTP (conventions-2.md §7, decision 8): every limit at its edge, every visibility and
// permission rule, and the flow through GitBook's own client. Answers are checked against GitBook's schema by
// the harness. `OCTAVO_INTEGRATIONS_STORAGE=pglite` (or `=pg` with OCTAVO_TEST_DATABASE_URL) runs it on PostgreSQL.
const storage = (() => {
  const url = process.env["OCTAVO_TEST_DATABASE_URL"]
  switch (process.env["OCTAVO_INTEGRATIONS_STORAGE"]) {
    case "pglite":
      return PgStorage.pipe(Layer.provide(PgliteClient()))
    case "pg":
      if (url === undefined) throw new Error("OCTAVO_INTEGRATIONS_STORAGE=pg needs OCTAVO_TEST_DATABASE_URL")
      return PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(url)))
    default:
      return MemoryStorage
  }
})()

/** The harness's test server, with a key to seal secrets with (or none). */
const server = (storage: Layer.Layer<StoragePorts, unknown>, secretKey: Redacted.Redacted<Uint8Array> | undefined) =>
  makeHttpApp(storage, {
    publicUrl: PUBLIC_URL,
    adminToken: ADMIN_TOKEN,
    secretKey,
    rateLimit: { perToken: 1_000_000, perAddress: 1_000_000 }
  }).pipe(Layer.provideMerge(NodeHttpServer.layerTest), Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)))

const MiB = 1024 * 1024

/** `size` bytes that open as the given image type. */
const image = (kind: "png" | "jpeg" | "webp" | "svg", size = 64): string => {
  const head = {
    png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from("IHDR")]),
    jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    webp: Buffer.concat([Buffer.from("RIFF"), Buffer.from([0, 0, 0, 0]), Buffer.from("WEBPVP8 ")]),
    svg: Buffer.from("<?xml version=\"1.0\"?>\n<!-- icon -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>")
  }[kind]
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), kind === "svg" ? 0x20 : 0x41)]).toString("base64")
}

let sequence = 0
/** A name no other test of this run uses: names are global. */
const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${sequence++}`

/** An organization and its admin. */
const organization = (name: string) =>
  Effect.gen(function*() {
    const admin = yield* newUser(name)
    const created = yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: `${name} Org` } })
    expect(created.status).toBe(201)
    return { admin, id: created.body.id as string }
  })

const body = (organizationId: string, fields: Record<string, unknown> = {}) => ({
  organization: organizationId,
  title: "Acme Tool",
  description: "Does a thing",
  // GitBook types scopes as an enum its declarations do not let NodeNext import; the value is one of its members.
  scopes: ["space:content:read" as never],
  script: "export default { fetch: () => new Response('ok') }",
  ...fields
})

const publish = (name: string, token: string, payload: unknown) => call("POST", `/v1/integrations/${name}`, { token, body: payload })

const errorOf = (answer: Answer) => [answer.status, answer.body?.error?.code]
const message = (answer: Answer) => answer.body.error.message as string
const names = (answer: Answer) => answer.body.items.map((i: { name: string }) => i.name) as Array<string>

/** GET of a URL of ours as bytes, with its content type. */
const fetchBytes = (url: string, token: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.bearerToken(HttpClientRequest.get(url.replace(PUBLIC_URL, "")), token))
    return { status: response.status, type: response.headers["content-type"], bytes: Buffer.from(yield* response.arrayBuffer) }
  }).pipe(Effect.scoped, Effect.orDie)

const key = Redacted.make(new Uint8Array(randomBytes(32)))

layer(server(storage, key), { excludeTestServices: true, timeout: 120_000 })("integrations over HTTP", (it) => {
  it.effect("the flow through GitBook's client: published with secrets, installed elsewhere, configured, listed, uninstalled", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Ann Acme")
      const other = yield* organization("Ben Other")
      const name = uniqueName("flow")
      const client = yield* clientFor(acme.admin.token)
      const secret = `sk-${randomBytes(12).toString("hex")}`
      const first = yield* Effect.promise(() =>
        client.integrations.publishIntegration(name, {
          ...body(acme.id),
          visibility: "public" as never,
          categories: ["analytics" as never],
          secrets: { API_KEY: secret },
          configurations: {
            account: { properties: { token: { type: "string", title: "Token" } }, required: ["token"] }
          }
        })
      )
      expect(first.status).toBe(201)
      expect(first.headers.get("location")).toBe(`${PUBLIC_URL}/v1/integrations/${name}`)
      expect(first.data).toMatchObject({
        object: "integration",
        name,
        version: 1,
        verified: false,
        visibility: "public",
        target: "all",
        permissions: { admin: true, install: true },
        owner: { id: acme.id }
      })
      expect(JSON.stringify(first.data)).not.toContain(secret)
      expect(JSON.stringify(first.data)).not.toContain("new Response")
      const second = yield* Effect.promise(() =>
        client.integrations.publishIntegration(name, {
          ...body(acme.id),
          visibility: "public" as never,
          configurations: first.data.configurations
        })
      )
      expect([second.status, second.data.version, second.headers.get("location")]).toEqual([200, 2, null])

      // Another organization's admin installs it: pending until the required account setting is given.
      const theirs = yield* clientFor(other.admin.token)
      const installed = yield* Effect.promise(() => theirs.integrations.installIntegration(name, { organization: other.id }))
      expect(installed.status).toBe(201)
      expect(installed.headers.get("location")).toBe(installed.data.urls.location)
      expect(installed.data).toMatchObject({
        status: "pending",
        space_selection: "all",
        site_selection: "all",
        spaces: 0,
        configuration: {},
        externalIds: [],
        target: { organization: other.id }
      })
      const id = installed.data.id
      const configured = yield* Effect.promise(() =>
        theirs.integrations.updateIntegrationInstallation(name, id, {
          configuration: { token: "abc" },
          externalIds: ["ext-1"],
          space_selection: "selected" as never
        })
      )
      expect(configured.data).toMatchObject({
        status: "active",
        configuration: { token: "abc" },
        externalIds: ["ext-1"],
        space_selection: "selected"
      })
      expect((yield* Effect.promise(() => theirs.integrations.getIntegrationInstallationById(name, id))).data.status).toBe("active")
      const listed = yield* Effect.promise(() => client.integrations.listIntegrationInstallations(name, { externalId: "ext-1" }))
      expect(listed.data.items.map((i) => i.id)).toEqual([id])
      expect((yield* Effect.promise(() => client.integrations.listIntegrationInstallations(name, { externalId: "ext-2" }))).data.count)
        .toBe(0)
      const found = yield* Effect.promise(() => theirs.integrations.getIntegrationByName(name))
      expect(found.data.permissions).toEqual({ admin: false, install: true })
      expect(found.data.owner.emailDomains).toEqual([])
      const all = yield* Effect.promise(() => theirs.integrations.listIntegrations({ search: name }))
      expect(all.data.items.map((i) => i.name)).toEqual([name])
      expect((yield* Effect.promise(() => theirs.integrations.uninstallIntegration(name, id))).status).toBe(204)
      expect(errorOf(yield* call("GET", `/v1/integrations/${name}/installations/${id}`, { token: other.admin.token }))).toEqual([404, 404])
      expect((yield* Effect.promise(() => client.integrations.unpublishIntegration(name))).status).toBe(204)
      expect(errorOf(yield* call("GET", `/v1/integrations/${name}`, { token: acme.admin.token }))).toEqual([404, 404])
    }))

  it.effect("publish: title, description, summary, name, previews, links at their edges; enums; defaults", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Cy Edges")
      const name = uniqueName("edges")
      const edge = (fields: Record<string, unknown>, path = name) => publish(path, acme.admin.token, body(acme.id, fields))
      const ok = yield* edge({ title: "ab" })
      expect([ok.status, ok.body.visibility, ok.body.target, ok.body.categories, ok.body.previewImages]).toEqual([
        201,
        "private",
        "all",
        [],
        []
      ])
      expect((yield* edge({ title: "a".repeat(30) })).status).toBe(200)
      expect(message(yield* edge({ title: "a" }))).toBe("title: must be at least 2 characters, got 1")
      expect(message(yield* edge({ title: "a".repeat(31) }))).toBe("title: must be at most 30 characters, got 31")
      expect((yield* edge({ description: "d".repeat(100) })).status).toBe(200)
      expect(message(yield* edge({ description: "d".repeat(101) }))).toBe("description: must be at most 100 characters, got 101")
      expect((yield* edge({ summary: "s".repeat(2048) })).status).toBe(200)
      expect(message(yield* edge({ summary: "s".repeat(2049) }))).toBe("summary: must be at most 2048 characters, got 2049")
      const long = `${name}-`.padEnd(100, "x")
      expect((yield* edge({}, long)).status).toBe(201)
      // A name past the limit reaches the endpoint (the router matches long path parameters) and its rule.
      const tooLong = yield* edge({}, `${long}x`)
      expect([errorOf(tooLong), message(tooLong)]).toEqual([[400, 400], "integrationName: must be at most 100 characters, got 101"])
      expect(message(yield* edge({}, "bad%20name"))).toMatch(/^integrationName: must be letters, digits, -, _ and \./)
      const previews = yield* edge({ previewImages: [image("png"), image("jpeg"), image("svg")] })
      expect(previews.body.previewImages).toHaveLength(3)
      expect(message(yield* edge({ previewImages: [image("png"), image("png"), image("png"), image("png")] }))).toBe(
        "previewImages: must have at most 3 entries, got 4"
      )
      const link = { url: "https://acme.test/docs", label: "Docs" }
      expect((yield* edge({ externalLinks: Array(5).fill(link) })).body.externalLinks).toHaveLength(5)
      expect(message(yield* edge({ externalLinks: Array(6).fill(link) }))).toBe("externalLinks: must have at most 5 entries, got 6")
      expect(errorOf(yield* edge({ externalLinks: [{ url: "ftp://x", label: "x" }] }))).toEqual([400, 400])
      // Every scope GitBook names, and the seed's space:views:read.
      const scopes = IntegrationScope.literals
      expect((yield* edge({ scopes })).body.scopes).toEqual(scopes)
      expect(errorOf(yield* edge({ scopes: ["space:everything"] }))).toEqual([400, 400])
      expect(errorOf(yield* edge({ scopes: undefined }))).toEqual([400, 400])
      expect(errorOf(yield* edge({ categories: ["games"] }))).toEqual([400, 400])
      expect(errorOf(yield* edge({ visibility: "secret" }))).toEqual([400, 400])
      expect(errorOf(yield* edge({ target: "page" }))).toEqual([400, 400])
      expect(errorOf(yield* edge({ script: undefined }))).toEqual([400, 400])
      const kept = yield* edge({
        visibility: "unlisted",
        target: "site",
        categories: ["visitor-auth", "other"],
        contentSecurityPolicy: { "script-src": "'self'" },
        blocks: [{ id: "embed", title: "Embed", urlUnfurl: ["https://*.figma.com/file/*"], markdown: { codeblock: "figma", body: "url" } }],
        contentSources: [{ id: "src", title: "Source", configuration: { componentId: "configure" } }]
      })
      expect(kept.body).toMatchObject({
        visibility: "unlisted",
        target: "site",
        categories: ["visitor-auth", "other"],
        contentSecurityPolicy: { "script-src": "'self'" },
        blocks: [{ id: "embed", urlUnfurl: ["https://*.figma.com/file/*"] }],
        contentSources: [{ id: "src", configuration: { componentId: "configure" } }]
      })
      // The policy is sent as a header: a CR or LF would start another one.
      expect(message(yield* edge({ contentSecurityPolicy: "default-src 'self'\r\nX-Injected: 1" }))).toBe(
        "contentSecurityPolicy: must not contain control characters such as CR or LF (it is sent as a header)"
      )
      expect(errorOf(yield* edge({ contentSecurityPolicy: { "script-src": "'self'\nX-Injected: 1" } }))).toEqual([400, 400])
      expect(errorOf(yield* edge({ contentSecurityPolicy: { "script-src\r\nX": "'self'" } }))).toEqual([400, 400])
    }))

  it.effect("publish: configurations' required names only their properties; images are sniffed and at most 1 MiB", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Di Images")
      const name = uniqueName("images")
      const edge = (fields: Record<string, unknown>) => publish(name, acme.admin.token, body(acme.id, fields))
      const properties = {
        a: { type: "string", enum: ["x", "y"] },
        b: { type: "number", default: 1 },
        c: { type: "button", callback_url: "/cb", button_text: "Go" }
      }
      const configured = yield* edge({ configurations: { account: { properties, required: ["a", "b"] }, site: { properties: {} } } })
      expect(Object.keys(configured.body.configurations.account.properties)).toEqual(["a", "b", "c"])
      expect(message(yield* edge({ configurations: { account: { properties, required: ["z"] } } }))).toBe(
        "configurations.account.required.0: z is not one of the properties"
      )
      expect(message(yield* edge({ configurations: { space: { properties, required: ["a", "a"] } } }))).toBe(
        "configurations.space.required.1: a is listed twice"
      )
      expect(errorOf(yield* edge({ configurations: { account: { properties: { a: { type: "date" } } } } }))).toEqual([400, 400])
      expect(errorOf(yield* edge({ configurations: { account: { required: [] } } }))).toEqual([400, 400])
      for (const kind of ["png", "jpeg", "webp", "svg"] as const) {
        const answer = yield* edge({ icon: image(kind) })
        expect([kind, answer.status]).toEqual([kind, 200])
        const served = yield* fetchBytes(answer.body.urls.icon, acme.admin.token)
        expect([kind, served.status, served.type, served.bytes.toString("base64")]).toEqual([
          kind,
          200,
          {
            png: "image/png",
            jpeg: "image/jpeg",
            webp: "image/webp",
            svg: "image/svg+xml"
          }[kind],
          image(kind)
        ])
      }
      const largest = yield* edge({ icon: image("png", MiB) })
      expect(largest.status).toBe(200)
      expect(message(yield* edge({ icon: image("png", MiB + 1) }))).toBe(
        "icon: must be at most 1048576 bytes (1 MiB) once decoded, got 1048577"
      )
      expect(message(yield* edge({ icon: Buffer.from("GIF89a....").toString("base64") }))).toBe(
        "icon: must be a PNG, JPEG, WebP or SVG image in base64"
      )
      expect(message(yield* edge({ previewImages: [image("png"), Buffer.from("plain text").toString("base64")] }))).toBe(
        "previewImages.1: must be a PNG, JPEG, WebP or SVG image in base64"
      )
      expect(message(yield* edge({ icon: "not base64!" }))).toBe("icon: must be base64 (RFC 4648, with padding)")
      // A PNG or WebP signature on bytes that are not one: the first chunk must follow it.
      const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      const fakePng = Buffer.concat([pngSignature, Buffer.from("<html><script>alert(1)</script></html>")])
      const fakeWebp = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBP<html></html>")])
      for (const fake of [fakePng, fakeWebp]) {
        expect(message(yield* edge({ icon: fake.toString("base64") }))).toBe("icon: must be a PNG, JPEG, WebP or SVG image in base64")
      }
      // Nothing of a refused publish was kept: the last good version stands.
      expect((yield* call("GET", `/v1/integrations/${name}`, { token: acme.admin.token })).body.version).toBe(6)
      const preview = yield* edge({ previewImages: [image("webp")] })
      const served = yield* fetchBytes(preview.body.previewImages[0], acme.admin.token)
      expect([served.status, served.type]).toEqual([200, "image/webp"])
      // Another organization does not see a private integration's images; the public endpoint does not answer.
      const stranger = yield* organization("Ed Stranger")
      expect((yield* fetchBytes(preview.body.previewImages[0], stranger.admin.token)).status).toBe(404)
      expect((yield* fetchBytes(preview.body.urls.publicEndpoint, acme.admin.token)).status).toBe(404)
      expect((yield* fetchBytes(`${preview.body.urls.assets}/${"0".repeat(64)}`, acme.admin.token)).status).toBe(404)
    }))

  it.effect("publish: the script up to 5 MiB in a body over the server's usual 2 MiB; 413 past the route's limit", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Flo Script")
      const name = uniqueName("script")
      // "é" is two bytes: the string below is exactly 5 MiB of UTF-8.
      const fiveMiB = `é${"/".repeat(5 * MiB - 2)}`
      expect(Buffer.byteLength(fiveMiB)).toBe(5 * MiB)
      expect((yield* publish(name, acme.admin.token, body(acme.id, { script: fiveMiB }))).status).toBe(201)
      const over = yield* publish(name, acme.admin.token, body(acme.id, { script: `${fiveMiB}/` }))
      expect([over.status, message(over)]).toEqual([400, "script: must be at most 5242880 bytes (5 MiB), got 5242881"])
      const huge = yield* publish(name, acme.admin.token, body(acme.id, { script: "x".repeat(17 * MiB) }))
      expect(errorOf(huge)).toEqual([413, 413])
      // Other routes keep the 2 MiB limit.
      const elsewhere = yield* call("POST", "/v1/orgs", { token: acme.admin.token, body: { title: "x".repeat(3 * MiB) } })
      expect(errorOf(elsewhere)).toEqual([413, 413])
    }))

  it.effect("publish: secrets at their edges, never answered; absent keeps them, {} clears them", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Gil Secrets")
      const name = uniqueName("secrets")
      const edge = (secrets: unknown) => publish(name, acme.admin.token, body(acme.id, { secrets }))
      const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`KEY_${i}`, "v".repeat(4096)]))
      const ok = yield* edge(fifty)
      expect(ok.status).toBe(201)
      expect(JSON.stringify(ok.body)).not.toContain("vvvv")
      expect(message(yield* edge({ ...fifty, KEY_50: "v" }))).toBe("secrets: must have at most 50 keys, got 51")
      expect(message(yield* edge({ A: "v".repeat(4097) }))).toBe("secrets.A: must be at most 4096 characters, got 4097")
      expect((yield* edge({ [`_${"a".repeat(63)}`]: "x" })).status).toBe(200)
      expect(message(yield* edge({ [`_${"a".repeat(64)}`]: "x" }))).toMatch(/^secrets\._a+: key must match/)
      expect(message(yield* edge({ "9lives": "x" }))).toBe("secrets.9lives: key must match ^[A-Za-z_]\\w{0,63}$")
      expect(message(yield* edge({ "has-dash": "x" }))).toBe("secrets.has-dash: key must match ^[A-Za-z_]\\w{0,63}$")
      // A value of the wrong type is not quoted back: it may be the secret.
      for (const value of [4111111111111111, ["sk_live_quoted"], { key: "sk_live_quoted" }, null]) {
        expect(message(yield* edge({ A: value }))).toBe("secrets.A: must be a string (secret values are strings)")
      }
      expect((yield* edge({})).status).toBe(200)
      expect((yield* publish(name, acme.admin.token, body(acme.id))).status).toBe(200)
    }))

  it.effect("names: global and unique ignoring case; 409 for another organization's; publisher by id or hostname; 400 and 403", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Hal Names")
      const other = yield* organization("Ida Names")
      const reader = yield* newUser("Jo Reader")
      yield* addMember(acme.id, acme.admin, reader, "read")
      const name = uniqueName("Taken")
      expect((yield* publish(name, acme.admin.token, body(acme.id))).status).toBe(201)
      const clash = yield* publish(name.toLowerCase(), other.admin.token, body(other.id))
      expect([clash.status, message(clash)]).toEqual([409, `The integration name ${name.toLowerCase()} is taken by another organization`])
      // The owner never changes: its admin who also administers another organization cannot move it there.
      yield* addMember(other.id, other.admin, acme.admin, "admin")
      expect(errorOf(yield* publish(name, acme.admin.token, body(other.id)))).toEqual([409, 409])
      // The same owner in another case: a new version of the same integration, its name as first published.
      const again = yield* publish(name.toUpperCase(), acme.admin.token, body(acme.id))
      expect([again.status, again.body.name, again.body.version]).toEqual([200, name, 2])
      // By hostname.
      const hostname = `h${process.pid}x${sequence++}`
      expect((yield* call("PATCH", `/v1/orgs/${acme.id}`, { token: acme.admin.token, body: { hostname } })).status).toBe(200)
      expect((yield* publish(name, acme.admin.token, body(hostname))).body.version).toBe(3)
      // Not a member: 400, as for an unknown one; a member below admin: 403.
      const stranger = yield* newUser("Kit Stranger")
      const notMember = yield* publish(uniqueName("x"), stranger.token, body(acme.id))
      const unknown = yield* publish(uniqueName("x"), stranger.token, body("no-such-org"))
      expect([errorOf(notMember), message(notMember)]).toEqual([[400, 400], message(unknown)])
      expect(errorOf(yield* publish(name, reader.token, body(acme.id)))).toEqual([403, 403])
      expect(errorOf(yield* publish(uniqueName("y"), reader.token, body(acme.id)))).toEqual([403, 403])
      expect(errorOf(yield* call("POST", `/v1/integrations/${name}`, { body: body(acme.id) }))).toEqual([401, 401])
    }))

  it.effect("visibility: public for all, unlisted by name, private for the owner's members; permissions", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Lu Owner")
      const other = yield* organization("Max Other")
      const guest = yield* newUser("Ned Guest")
      yield* addMember(acme.id, acme.admin, guest, null)
      const tag = uniqueName("vis")
      for (const visibility of ["public", "unlisted", "private"]) {
        expect((yield* publish(`${tag}-${visibility}`, acme.admin.token, body(acme.id, { visibility }))).status).toBe(201)
      }
      const get = (visibility: string, token: string) => call("GET", `/v1/integrations/${tag}-${visibility}`, { token })
      const list = (token: string) => call("GET", `/v1/integrations?search=${tag}`, { token })
      expect(names(yield* list(acme.admin.token))).toEqual([`${tag}-private`, `${tag}-public`, `${tag}-unlisted`])
      expect(names(yield* list(guest.token))).toEqual([`${tag}-private`, `${tag}-public`, `${tag}-unlisted`])
      expect(names(yield* list(other.admin.token))).toEqual([`${tag}-public`])
      expect((yield* get("public", other.admin.token)).body.permissions).toEqual({ admin: false, install: true })
      expect((yield* get("unlisted", other.admin.token)).status).toBe(200)
      const hidden = yield* get("private", other.admin.token)
      expect([errorOf(hidden), message(hidden)]).toEqual([[404, 404], `integration ${tag}-private was not found`])
      expect(errorOf(yield* get("nothing", other.admin.token))).toEqual([404, 404])
      expect((yield* get("private", guest.token)).body.permissions).toEqual({ admin: false, install: false })
      expect((yield* get("private", acme.admin.token)).body.permissions).toEqual({ admin: true, install: true })
      expect(errorOf(yield* call("GET", `/v1/integrations/${tag}-public`))).toEqual([401, 401])
      expect(errorOf(yield* call("GET", "/v1/integrations", { token: "nope" }))).toEqual([401, 401])
      // Unpublishing: the owner's admins only; others who see it 403, others 404.
      expect(errorOf(yield* call("DELETE", `/v1/integrations/${tag}-private`, { token: guest.token }))).toEqual([403, 403])
      expect(errorOf(yield* call("DELETE", `/v1/integrations/${tag}-public`, { token: other.admin.token }))).toEqual([403, 403])
      expect(errorOf(yield* call("DELETE", `/v1/integrations/${tag}-private`, { token: other.admin.token }))).toEqual([404, 404])
      expect((yield* call("DELETE", `/v1/integrations/${tag}-private`, { token: acme.admin.token })).status).toBe(204)
      // The name is free again, for anyone.
      expect((yield* publish(`${tag}-private`, other.admin.token, body(other.id))).status).toBe(201)
    }))

  it.effect("list: filters by search, category, block domain, blocks, content sources and owner; by name, page by page", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Oz Lists")
      const other = yield* organization("Pia Lists")
      const tag = uniqueName("lst")
      const put = (suffix: string, token: string, org: string, fields: Record<string, unknown>) =>
        Effect.map(publish(`${tag}-${suffix}`, token, body(org, { visibility: "public", ...fields })), (a) => expect(a.status).toBe(201))
      yield* put("c", acme.admin.token, acme.id, {
        categories: ["content"],
        blocks: [{ id: "b", title: "Bee", urlUnfurl: ["https://www.youtube.com/watch?v=*"] }]
      })
      yield* put("a", acme.admin.token, acme.id, { title: "Alpha Analytics", categories: ["analytics"] })
      yield* put("B", other.admin.token, other.id, { contentSources: [{ id: "s", title: "Src", configuration: { componentId: "c" } }] })
      const list = (query: string) => call("GET", `/v1/integrations?search=${tag}${query}`, { token: acme.admin.token })
      expect(names(yield* list(""))).toEqual([`${tag}-B`, `${tag}-a`, `${tag}-c`])
      expect(names(yield* call("GET", "/v1/integrations?search=ALPHA%20analytics", { token: acme.admin.token }))).toContain(`${tag}-a`)
      expect(names(yield* list("&category=analytics"))).toEqual([`${tag}-a`])
      expect(errorOf(yield* list("&category=games"))).toEqual([400, 400])
      expect(names(yield* list("&blockDomain=youtube.com"))).toEqual([`${tag}-c`])
      expect(names(yield* list("&blockDomain=WWW.YouTube.com"))).toEqual([`${tag}-c`])
      expect(names(yield* list("&blockDomain=tube.com"))).toEqual([])
      expect(message(yield* list("&blockDomain=bad/domain"))).toMatch(/^blockDomain: must be letters, digits/)
      expect(message(yield* list(`&blockDomain=${"a".repeat(101)}`))).toBe("blockDomain: must be at most 100 characters, got 101")
      expect((yield* list(`&blockDomain=${"a".repeat(100)}`)).status).toBe(200)
      expect(names(yield* list("&blocks=true"))).toEqual([`${tag}-c`])
      expect(names(yield* list("&blocks=false"))).toEqual([`${tag}-B`, `${tag}-a`])
      expect(names(yield* list("&contentSources=true"))).toEqual([`${tag}-B`])
      expect(errorOf(yield* list("&blocks=yes"))).toEqual([400, 400])
      expect(names(yield* list(`&owner=${other.id}`))).toEqual([`${tag}-B`])
      const page1 = yield* list("&limit=2")
      expect([names(page1), page1.body.count]).toEqual([[`${tag}-B`, `${tag}-a`], 3])
      const page2 = yield* list(`&limit=2&page=${page1.body.next.page}`)
      expect([names(page2), page2.body.next]).toEqual([[`${tag}-c`], undefined])
      expect(errorOf(yield* list("&page=forged"))).toEqual([400, 400])
      expect(errorOf(yield* list("&limit=1001"))).toEqual([400, 400])
    }))

  it.effect("installations: admins of the target install once a visible integration; who reads, changes and lists them", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Quinn Owner")
      const beta = yield* organization("Ray Beta")
      const gamma = yield* organization("Sue Gamma")
      const betaReader = yield* newUser("Ty Reader")
      yield* addMember(beta.id, beta.admin, betaReader, "edit")
      const tag = uniqueName("ins")
      const pub = `${tag}-pub`
      const priv = `${tag}-priv`
      yield* publish(pub, acme.admin.token, body(acme.id, { visibility: "public" }))
      yield* publish(priv, acme.admin.token, body(acme.id))
      const install = (name: string, user: TestUser, org: string) =>
        call("POST", `/v1/integrations/${name}/installations`, { token: user.token, body: { organization: org } })
      const inBeta = yield* install(pub, beta.admin, beta.id)
      expect([inBeta.status, inBeta.body.status]).toEqual([201, "active"])
      expect(errorOf(yield* install(pub, beta.admin, beta.id))).toEqual([409, 409])
      expect(errorOf(yield* install(pub, betaReader, beta.id))).toEqual([403, 403])
      expect(errorOf(yield* install(pub, betaReader, acme.id))).toEqual([400, 400])
      expect(errorOf(yield* install(priv, beta.admin, beta.id))).toEqual([404, 404])
      expect(errorOf(yield* install(`${tag}-none`, beta.admin, beta.id))).toEqual([404, 404])
      // The owner's admin who administers another organization: a private integration installs only in its owner.
      yield* addMember(gamma.id, gamma.admin, acme.admin, "admin")
      const elsewhere = yield* install(priv, acme.admin, gamma.id)
      expect([errorOf(elsewhere), message(elsewhere)]).toEqual([
        [400, 400],
        "organization: the integration is private to the organization that publishes it and installs only there"
      ])
      expect((yield* install(priv, acme.admin, acme.id)).status).toBe(201)
      const inGamma = yield* install(pub, gamma.admin, gamma.id)
      const path = (id: string) => `/v1/integrations/${pub}/installations/${id}`
      // Reading and changing: the owner's admins and the organization's admins; its other members 403; anyone else 404.
      expect((yield* call("GET", path(inBeta.body.id), { token: acme.admin.token })).status).toBe(200)
      expect(errorOf(yield* call("GET", path(inBeta.body.id), { token: betaReader.token }))).toEqual([403, 403])
      expect(errorOf(yield* call("PATCH", path(inBeta.body.id), { token: betaReader.token, body: {} }))).toEqual([403, 403])
      expect(errorOf(yield* call("DELETE", path(inBeta.body.id), { token: betaReader.token }))).toEqual([403, 403])
      expect(errorOf(yield* call("GET", path(inBeta.body.id), { token: gamma.admin.token }))).toEqual([404, 404])
      expect(errorOf(yield* call("GET", path("no-such-installation"), { token: acme.admin.token }))).toEqual([404, 404])
      expect(errorOf(yield* call("GET", `/v1/integrations/${priv}/installations/${inBeta.body.id}`, { token: acme.admin.token }))).toEqual([
        404,
        404
      ])
      // externalIds: at most 5.
      const ids = ["a", "b", "c", "d", "e"]
      expect((yield* call("PATCH", path(inBeta.body.id), { token: beta.admin.token, body: { externalIds: ids } })).body.externalIds)
        .toEqual(ids)
      const six = yield* call("PATCH", path(inBeta.body.id), { token: beta.admin.token, body: { externalIds: [...ids, "f"] } })
      expect(message(six)).toBe("externalIds: must have at most 5 entries, got 6")
      expect(errorOf(yield* call("PATCH", path(inBeta.body.id), { token: beta.admin.token, body: { site_selection: "some" } }))).toEqual([
        400,
        400
      ])
      // Listing: the owner's admins see all; others those of organizations they administer.
      const list = (user: TestUser, query = "") => call("GET", `/v1/integrations/${pub}/installations${query}`, { token: user.token })
      const byOwner = yield* list(acme.admin)
      expect(byOwner.body.items.map((i: { id: string }) => i.id).sort()).toEqual([inBeta.body.id, inGamma.body.id].sort())
      expect((yield* list(beta.admin)).body.items.map((i: { id: string }) => i.id)).toEqual([inBeta.body.id])
      expect((yield* list(betaReader)).body.count).toBe(0)
      expect((yield* list(acme.admin, "?externalId=c")).body.items.map((i: { id: string }) => i.id)).toEqual([inBeta.body.id])
      expect(errorOf(yield* call("GET", `/v1/integrations/${priv}/installations`, { token: beta.admin.token }))).toEqual([404, 404])
      // Unpublishing takes the installations with it.
      expect((yield* call("DELETE", `/v1/integrations/${pub}`, { token: acme.admin.token })).status).toBe(204)
      expect(errorOf(yield* call("GET", path(inGamma.body.id), { token: gamma.admin.token }))).toEqual([404, 404])
      yield* publish(pub, acme.admin.token, body(acme.id, { visibility: "public" }))
      expect((yield* list(acme.admin)).body.count).toBe(0)
    }))

  it.effect("installations: configuration keys named like Object's members are checked as their own properties", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Uma Proto")
      const name = uniqueName("proto")
      const properties = { a: { type: "string" }, constructor: { type: "number" } }
      yield* publish(name, acme.admin.token, body(acme.id, { configurations: { account: { properties, required: ["a"] } } }))
      const installed = yield* call("POST", `/v1/integrations/${name}/installations`, {
        token: acme.admin.token,
        body: { organization: acme.id }
      })
      const path = `/v1/integrations/${name}/installations/${installed.body.id}`
      const patch = (configuration: string) =>
        call("PATCH", path, { token: acme.admin.token, body: JSON.parse(`{"configuration":${configuration}}`) })
      // `__proto__` and `toString` are no declared property: kept as given, like any undeclared key.
      const undeclared = yield* patch(`{"__proto__":{"x":1},"toString":"y","a":"v"}`)
      expect([undeclared.status, undeclared.body.status, JSON.stringify(undeclared.body.configuration)]).toEqual([
        200,
        "active",
        `{"__proto__":{"x":1},"toString":"y","a":"v"}`
      ])
      // A declared `constructor` keeps its declared type.
      expect(message(yield* patch(`{"constructor":"not a number"}`))).toBe("configuration.constructor: must be a number")
      expect((yield* patch(`{"constructor":2,"a":"v"}`)).body.configuration).toEqual({ constructor: 2, a: "v" })
    }))
})

layer(server(storage, undefined), { excludeTestServices: true, timeout: 60_000 })("integrations without OCTAVO_SECRET_KEY", (it) => {
  it.effect("publishing with secrets is 412 naming the variable and keeps nothing; without secrets it works", () =>
    Effect.gen(function*() {
      const acme = yield* organization("Uma Keyless")
      const name = uniqueName("keyless")
      const refused = yield* publish(name, acme.admin.token, body(acme.id, { secrets: { TOKEN: "x" } }))
      expect([errorOf(refused), message(refused)]).toEqual([[412, 412], expect.stringContaining("OCTAVO_SECRET_KEY")])
      expect(errorOf(yield* call("GET", `/v1/integrations/${name}`, { token: acme.admin.token }))).toEqual([404, 404])
      expect((yield* publish(name, acme.admin.token, body(acme.id))).status).toBe(201)
      expect((yield* publish(name, acme.admin.token, body(acme.id, { secrets: {} }))).status).toBe(200)
    }))
})
