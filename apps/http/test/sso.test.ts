import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { MemberRole } from "@gitbook/api/client"
import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { type Answer, call, PUBLIC_URL, testServer } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { addMember, chars, newUser } from "./scenario.js"

// SSO over HTTP (conventions-2.md §4, decision 3): SAML providers with real certificates made by
// openssl, the sign-in list, enforcing SSO, subdomains; every limit at its edge, every status.

/** Memory by default; `OCTAVO_SSO_STORAGE=pglite` or `=pg` (OCTAVO_TEST_DATABASE_URL) runs the same file on PostgreSQL. */
const storage = (() => {
  const url = process.env["OCTAVO_TEST_DATABASE_URL"]
  switch (process.env["OCTAVO_SSO_STORAGE"]) {
    case "pglite":
      return PgStorage.pipe(Layer.provide(PgliteClient()))
    case "pg":
      if (url === undefined) throw new Error("OCTAVO_SSO_STORAGE=pg needs OCTAVO_TEST_DATABASE_URL")
      return PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(url)))
    default:
      return MemoryStorage
  }
})()

/** An identity provider's key and self-signed certificate, made by openssl; `days` -1 makes one that has expired. */
const openssl = (kind: "rsa" | "ec", days: number) => {
  const dir = mkdtempSync(join(tmpdir(), "octavo-saml-"))
  try {
    const key = join(dir, "idp.key")
    const csr = join(dir, "idp.csr")
    const cert = join(dir, "idp.pem")
    const algorithm = kind === "rsa" ? ["-newkey", "rsa:2048"] : ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
    execFileSync("openssl", ["req", "-new", ...algorithm, "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=idp.acme.test"], {
      stdio: "ignore"
    })
    execFileSync("openssl", ["x509", "-req", "-in", csr, "-signkey", key, "-days", String(days), "-out", cert], { stdio: "ignore" })
    const der = execFileSync("openssl", ["x509", "-in", cert, "-outform", "DER"])
    return { pem: readFileSync(cert, "utf8"), key: readFileSync(key, "utf8"), der: der.toString("base64") }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const rsa = openssl("rsa", 30)
const ec = openssl("ec", 30)
const expired = openssl("ec", -1)

/** The base64 lines of a PEM, whatever their line ends. */
const pemLines = (pem: string) => pem.trim().split(/\r?\n/)

/** A provider that signs users in: entity id, URL and certificate. */
const complete = (label: string, certificate = rsa.pem) => ({
  label,
  entityID: `urn:acme:${label}`,
  ssoURL: "https://idp.acme.test/app/sso/saml",
  certificate
})

/** An organization with an admin, an editor, a guest, a team; and an outsider with an organization and team of its own. */
const setup = Effect.gen(function*() {
  const admin = yield* newUser("Sia Sso")
  const editor = yield* newUser("Ed Editor")
  const guest = yield* newUser("Gil Guest")
  const outsider = yield* newUser("Oli Outsider")
  const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
  yield* addMember(organizationId, admin, editor, "edit")
  yield* addMember(organizationId, admin, guest, null)
  const otherOrganizationId = (yield* call("POST", "/v1/orgs", { token: outsider.token, body: { title: "Other" } })).body.id as string
  const team = yield* call("PUT", `/v1/orgs/${organizationId}/teams`, { token: admin.token, body: { title: "Writers" } })
  const theirTeam = yield* call("PUT", `/v1/orgs/${otherOrganizationId}/teams`, { token: outsider.token, body: { title: "Theirs" } })
  return {
    admin,
    editor,
    guest,
    outsider,
    organizationId,
    otherOrganizationId,
    teamId: team.body.id as string,
    theirTeamId: theirTeam.body.id as string,
    org: `/v1/orgs/${organizationId}`,
    saml: `/v1/orgs/${organizationId}/saml`
  }
})
type Setup = Effect.Effect.Success<typeof setup>

const create = (s: Setup, body: unknown) =>
  Effect.map(call("POST", s.saml, { token: s.admin.token, body }), (answer) => {
    expect([answer.status, answer.body]).toEqual([201, answer.body])
    return answer.body as { id: string } & Record<string, unknown>
  })

const expectError = (answer: Answer, status: number, message?: RegExp) => {
  expect([answer.status, answer.body]).toEqual([status, { error: { code: status, message: expect.any(String) } }])
  if (message !== undefined) expect(answer.body.error.message).toMatch(message)
}

layer(testServer(storage), { excludeTestServices: true, timeout: 120_000 })("SSO over HTTP", (it) => {
  it.effect("an admin registers a provider with an openssl certificate; every member sees it in /sso", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const created = yield* call("POST", s.saml, { token: s.admin.token, body: complete("Okta") })
      expect(created.status).toBe(201)
      const id = created.body.id as string
      const location = `${PUBLIC_URL}${s.saml}/${id}`
      expect(created.headers["location"]).toBe(location)
      expect(created.body).toEqual({
        object: "saml-provider",
        id,
        label: "Okta",
        ssoURL: "https://idp.acme.test/app/sso/saml",
        entityID: "urn:acme:Okta",
        certificate: expect.any(String),
        defaultRole: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        status: "active",
        service: {
          entityID: `${PUBLIC_URL}/sso/saml/${id}/metadata`,
          acsURL: `${PUBLIC_URL}/sso/saml/${id}/acs`,
          startURL: `${PUBLIC_URL}/sso/saml/${id}/start`
        },
        urls: { location }
      })
      expect(pemLines(created.body.certificate)).toEqual(pemLines(rsa.pem))
      expect((yield* call("GET", `${s.saml}/${id}`, { token: s.admin.token })).body).toEqual(created.body)
      const logins = { items: [{ id, label: "Okta", startURL: `${PUBLIC_URL}/sso/saml/${id}/start` }] }
      for (const user of [s.admin, s.editor, s.guest]) {
        const answer = yield* call("GET", `${s.org}/sso`, { token: user.token })
        expect([answer.status, answer.body]).toEqual([200, logins])
      }
    }))

  it.effect("certificates: PEM or bare base64 DER, kept as normalized PEM; expired ones accepted; keys refused and never echoed", () =>
    Effect.gen(function*() {
      const s = yield* setup
      // The same certificate as bare base64 DER, and as PEM with CRLF line ends and 76-column lines.
      const fromDer = yield* create(s, { label: "DER", certificate: rsa.der })
      expect(pemLines(fromDer.certificate as string)).toEqual(pemLines(rsa.pem))
      const wrapped = `-----BEGIN CERTIFICATE-----\r\n${rsa.der.match(/.{1,76}/g)!.join("\r\n")}\r\n-----END CERTIFICATE-----\r\n`
      const fromWrapped = yield* create(s, { label: "Wrapped", certificate: wrapped })
      expect(fromWrapped.certificate).toBe(fromDer.certificate)
      expect((yield* create(s, { label: "EC", certificate: ec.pem })).certificate).toBe(ec.pem.trim() + "\n")
      const old = yield* create(s, complete("Expired", expired.pem))
      expect(old.status).toBe("active")

      const before = yield* call("GET", s.saml, { token: s.admin.token })
      const keyLines = pemLines(rsa.key).slice(1, -1)
      for (
        const [certificate, message] of [
          [rsa.key, /not a private key/],
          [`${rsa.pem}${rsa.key}`, /not a private key/],
          [ec.key.replace("PRIVATE KEY", "EC PRIVATE KEY").replace("PRIVATE KEY", "EC PRIVATE KEY"), /not a private key/],
          [`${rsa.pem}${ec.pem}`, /single PEM block/],
          ["-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", /CERTIFICATE block/],
          ["hello", /certificate/],
          ["", /certificate/],
          [rsa.der.slice(0, 400), /X\.509/],
          [btoa("not a certificate at all"), /X\.509/]
        ] as const
      ) {
        const refused = yield* call("POST", s.saml, { token: s.admin.token, body: { label: "Bad", certificate } })
        expectError(refused, 400, message)
        expect(refused.body.error.message).toMatch(/^certificate: /)
        for (const line of keyLines) expect(refused.body.error.message).not.toContain(line)
      }
      // A key sent as something other than a string is not quoted either.
      for (const certificate of [pemLines(rsa.key), { key: rsa.key }]) {
        const refused = yield* call("POST", s.saml, { token: s.admin.token, body: { label: "Bad", certificate } })
        expectError(refused, 400, /^certificate: must be a string/)
        for (const line of keyLines) expect(refused.body.error.message).not.toContain(line)
      }
      const patched = yield* call("PATCH", `${s.saml}/${old.id}`, { token: s.admin.token, body: { certificate: rsa.key } })
      expectError(patched, 400, /not a private key/)
      expect(yield* call("GET", s.saml, { token: s.admin.token })).toMatchObject({ status: 200, body: before.body })
    }))

  it.effect("pending until entity id, URL and certificate are all set; unset fields are omitted; /sso lists active ones by creation", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const bare = yield* create(s, { label: "First" })
      expect(bare).toMatchObject({ label: "First", status: "pending", defaultRole: null })
      for (const field of ["entityID", "ssoURL", "certificate", "defaultTeam"]) expect(Object.keys(bare)).not.toContain(field)
      const second = yield* create(s, complete("Second"))
      const step1 = yield* call("PATCH", `${s.saml}/${bare.id}`, { token: s.admin.token, body: { entityID: "urn:first" } })
      expect(step1.body).toMatchObject({ status: "pending", entityID: "urn:first", label: "First" })
      expect((yield* call("GET", `${s.org}/sso`, { token: s.guest.token })).body.items.map((l: { id: string }) => l.id)).toEqual([
        second.id
      ])
      const step2 = yield* call("PATCH", `${s.saml}/${bare.id}`, {
        token: s.admin.token,
        body: { ssoURL: "https://idp.test/first", certificate: ec.pem, label: " First IdP " }
      })
      expect(step2.body).toMatchObject({ status: "active", label: "First IdP", entityID: "urn:first", ssoURL: "https://idp.test/first" })
      const logins = yield* call("GET", `${s.org}/sso`, { token: s.guest.token })
      expect(logins.body.items.map((l: { id: string; label: string }) => [l.id, l.label])).toEqual([[bare.id, "First IdP"], [
        second.id,
        "Second"
      ]])
      // A patch cannot unset what is set: an active provider stays active.
      expectError(yield* call("PATCH", `${s.saml}/${bare.id}`, { token: s.admin.token, body: { certificate: null } }), 400)
      expectError(yield* call("PATCH", `${s.saml}/${bare.id}`, { token: s.admin.token, body: { entityID: null } }), 400)
    }))

  it.effect("limits at their edges: label, entityID, ssoURL, certificate; a refused write changes nothing", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const p = yield* create(s, { label: "Edges" })
      const path = `${s.saml}/${p.id}`
      const patch = (body: unknown) => call("PATCH", path, { token: s.admin.token, body })
      const url = (n: number) => {
        const head = "https://idp.acme.test/"
        return head + chars(n - head.length, "x")
      }
      const cases: ReadonlyArray<readonly [unknown, number, string?]> = [
        [{ label: chars(30) }, 200],
        [{ label: chars(31) }, 400, "label: must be at most 30 characters once trimmed, got 31"],
        [{ label: `  ${chars(30)}  ` }, 200],
        [{ label: "" }, 400, "label: must not be empty once trimmed"],
        [{ label: "   " }, 400, "label: must not be empty once trimmed"],
        [{ entityID: chars(1024) }, 200],
        [{ entityID: chars(1025) }, 400, "entityID: must be at most 1024 characters, got 1025"],
        [{ entityID: "" }, 400, "entityID: must not be empty"],
        [{ ssoURL: url(2048) }, 200],
        [{ ssoURL: url(2049) }, 400, "ssoURL: must be at most 2048 characters, got 2049"],
        [{ ssoURL: "http://idp.acme.test/sso" }, 400],
        [{ ssoURL: "http://localhost:8080/sso" }, 200],
        [{ ssoURL: "http://127.0.0.1/sso" }, 200],
        [{ ssoURL: "http://[::1]:9000/sso" }, 200],
        [{ ssoURL: "https://user:secret@idp.acme.test/sso" }, 400, "ssoURL: must not hold credentials (user:password@)"],
        [{ ssoURL: "https://idp.acme.test/sso#top" }, 400, "ssoURL: must not have a fragment (#...)"],
        [{ ssoURL: "https://idp.acme.test/sso#" }, 400],
        [{ ssoURL: "ftp://idp.acme.test/sso" }, 400],
        [{ ssoURL: "/sso" }, 400],
        [{ ssoURL: "not a url" }, 400],
        [{ certificate: rsa.pem + "\n".repeat(10_000 - rsa.pem.length) }, 200],
        [{ certificate: rsa.pem + "\n".repeat(10_001 - rsa.pem.length) }, 400, "certificate: must be at most 10000 characters, got 10001"],
        [{ defaultRole: "edit" }, 200],
        [{ defaultRole: null }, 200],
        [{ defaultRole: "owner" }, 400],
        [{ label: 5 }, 400]
      ]
      for (const [body, status, message] of cases) {
        const before = (yield* call("GET", path, { token: s.admin.token })).body
        const answer = yield* patch(body)
        expect([body, answer.status]).toEqual([body, status])
        if (status === 400) {
          if (message !== undefined) expect(answer.body.error.message).toBe(message)
          expect((yield* call("GET", path, { token: s.admin.token })).body).toEqual(before)
        }
      }
      const final = (yield* call("GET", path, { token: s.admin.token })).body
      expect(final).toMatchObject({ label: chars(30), entityID: chars(1024), defaultRole: null, status: "active" })
      // Create takes the same rules, and needs a label.
      expectError(yield* call("POST", s.saml, { token: s.admin.token, body: {} }), 400, /label/)
      expectError(yield* call("POST", s.saml, { token: s.admin.token, body: { label: chars(31) } }), 400, /label/)
      expect((yield* call("POST", s.saml, { token: s.admin.token, body: { label: chars(30), defaultRole: "admin" } })).body)
        .toMatchObject({ label: chars(30), defaultRole: "admin" })
    }))

  it.effect("a default team of this organization answers as a Team; null clears it; another organization's or an unknown one is 400", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const p = yield* create(s, { label: "Teams", defaultTeam: s.teamId, defaultRole: "read" })
      expect(p.defaultTeam).toEqual({
        object: "team",
        id: s.teamId,
        title: "Writers",
        members: 0,
        spaces: 0,
        createdAt: expect.any(String),
        permissions: { admin: true, view: true }
      })
      const path = `${s.saml}/${p.id}`
      const theirs = yield* call("PATCH", path, { token: s.admin.token, body: { defaultTeam: s.theirTeamId } })
      const unknown = yield* call("PATCH", path, { token: s.admin.token, body: { defaultTeam: "no-such-team" } })
      expectError(theirs, 400)
      expectError(unknown, 400)
      expect(theirs.body.error.message).toBe(unknown.body.error.message.replace("no-such-team", s.theirTeamId))
      expectError(
        yield* call("POST", s.saml, { token: s.admin.token, body: { label: "X", defaultTeam: s.theirTeamId } }),
        400,
        /defaultTeam/
      )
      expect((yield* call("GET", path, { token: s.admin.token })).body.defaultTeam.id).toBe(s.teamId)
      const cleared = yield* call("PATCH", path, { token: s.admin.token, body: { defaultTeam: null } })
      expect(cleared.status).toBe(200)
      expect(Object.keys(cleared.body)).not.toContain("defaultTeam")
      yield* call("PATCH", path, { token: s.admin.token, body: { defaultTeam: s.teamId } })
      expect((yield* call("DELETE", `${s.org}/teams/${s.teamId}`, { token: s.admin.token })).status).toBe(204)
      expect(Object.keys((yield* call("GET", path, { token: s.admin.token })).body)).not.toContain("defaultTeam")
    }))

  it.effect("admins only: 401 without a token, 404 outside the organization, 403 below admin; /sso for every member", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const p = yield* create(s, complete("Locked"))
      const one = `${s.saml}/${p.id}`
      const requests = [
        ["GET", s.saml, undefined],
        ["POST", s.saml, { label: "New" }],
        ["GET", one, undefined],
        ["PATCH", one, { label: "New" }],
        ["DELETE", one, undefined]
      ] as const
      for (const [method, path, body] of requests) {
        expectError(yield* call(method, path, { body }), 401)
        expectError(yield* call(method, path, { token: s.outsider.token, body }), 404)
        expectError(yield* call(method, path, { token: s.editor.token, body }), 403)
        expectError(yield* call(method, path, { token: s.guest.token, body }), 403)
      }
      // A's provider through B, where the outsider is admin.
      const through = `/v1/orgs/${s.otherOrganizationId}/saml/${p.id}`
      for (const method of ["GET", "PATCH", "DELETE"] as const) {
        expectError(yield* call(method, through, { token: s.outsider.token, body: method === "PATCH" ? { label: "x" } : undefined }), 404)
      }
      expectError(yield* call("GET", `${s.org}/sso`, {}), 401)
      expectError(yield* call("GET", `${s.org}/sso`, { token: s.outsider.token }), 404)
      expect((yield* call("GET", `/v1/orgs/${s.otherOrganizationId}/sso`, { token: s.outsider.token })).body).toEqual({ items: [] })
      expect((yield* call("GET", one, { token: s.admin.token })).body).toMatchObject({ label: "Locked" })
      expectError(yield* call("GET", `${s.saml}/no-such-provider`, { token: s.admin.token }), 404)
      expectError(yield* call("GET", `${s.saml}/bad%20id`, { token: s.admin.token }), 400)
    }))

  it.effect("sso:true needs an active provider (412); the last active provider stays while sso is on (412); off, it goes (204)", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const enforce = (sso: boolean) => call("PATCH", s.org, { token: s.admin.token, body: { sso } })
      expectError(yield* enforce(true), 412, /sso: .*active SAML provider/)
      const pending = yield* create(s, { label: "Pending", entityID: "urn:x", ssoURL: "https://idp.test/x" })
      expectError(yield* enforce(true), 412)
      expect((yield* call("GET", s.org, { token: s.admin.token })).body.sso).toBe(false)
      const a = yield* create(s, complete("A"))
      const b = yield* create(s, complete("B", ec.pem))
      expect((yield* enforce(true)).body.sso).toBe(true)
      expect((yield* call("DELETE", `${s.saml}/${a.id}`, { token: s.admin.token })).status).toBe(204)
      expect((yield* call("DELETE", `${s.saml}/${pending.id}`, { token: s.admin.token })).status).toBe(204)
      const kept = yield* call("DELETE", `${s.saml}/${b.id}`, { token: s.admin.token })
      expectError(kept, 412, /sso to false first/)
      expect((yield* call("GET", `${s.saml}/${b.id}`, { token: s.admin.token })).status).toBe(200)
      expect((yield* call("GET", `${s.org}/sso`, { token: s.editor.token })).body.items).toHaveLength(1)
      expect((yield* enforce(false)).body.sso).toBe(false)
      const gone = yield* call("DELETE", `${s.saml}/${b.id}`, { token: s.admin.token })
      expect([gone.status, gone.body]).toEqual([204, null])
      expectError(yield* call("GET", `${s.saml}/${b.id}`, { token: s.admin.token }), 404)
      expectError(yield* call("DELETE", `${s.saml}/${b.id}`, { token: s.admin.token }), 404)
      expect((yield* call("GET", `${s.org}/sso`, { token: s.editor.token })).body).toEqual({ items: [] })
    }))

  it.effect("lists page by keyset, each provider once; limit 1-1000; a forged page is 400", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const made: Array<string> = []
      for (let i = 0; i < 5; i++) made.push((yield* create(s, { label: `P${i}` })).id)
      const seen: Array<string> = []
      let page: string | undefined
      for (let round = 0; round < 10; round++) {
        const answer = yield* call("GET", `${s.saml}?limit=2${page === undefined ? "" : `&page=${page}`}`, { token: s.admin.token })
        expect(answer.status).toBe(200)
        expect(answer.body.count).toBe(5 + round)
        seen.push(...answer.body.items.map((p: { id: string }) => p.id))
        // One more arrives between pages: later than all, it comes on a later page.
        made.push((yield* create(s, { label: `Late${round}` })).id)
        page = answer.body.next?.page
        if (page === undefined) break
      }
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen).toEqual(made.slice(0, seen.length))
      expect((yield* call("GET", `${s.saml}?limit=1000`, { token: s.admin.token })).status).toBe(200)
      for (const query of ["limit=0", "limit=1001", "limit=x", "page=forged"]) {
        expectError(yield* call("GET", `${s.saml}?${query}`, { token: s.admin.token }), 400)
      }
      const otherList = yield* call("GET", `/v1/orgs/${s.organizationId}/teams?limit=1`, { token: s.admin.token })
      expect(otherList.status).toBe(200)
    }))

  it.effect("subdomains: an organization's hostname, for any user; 3-32 characters of the pattern; unknown is 404", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const hostname = `acme-${Math.random().toString(36).slice(2, 10)}`
      expect((yield* call("PATCH", s.org, { token: s.admin.token, body: { hostname } })).status).toBe(200)
      const found = yield* call("GET", `/v1/subdomains/${hostname}`, { token: s.outsider.token })
      expect([found.status, found.body]).toEqual([200, {
        object: "subdomain",
        subdomain: hostname,
        target: { type: "organization", organization: s.organizationId },
        isActive: true
      }])
      expectError(yield* call("GET", `/v1/subdomains/${hostname}`), 401)
      expectError(yield* call("GET", `/v1/subdomains/${hostname}x`, { token: s.outsider.token }), 404)
      for (const name of ["abc", chars(32, "z"), "a-b"]) {
        expectError(yield* call("GET", `/v1/subdomains/${name}`, { token: s.outsider.token }), 404)
      }
      for (const name of ["ab", chars(33, "z"), "-abc", "abc-", "ABC", "a_b", "a.b"]) {
        expectError(yield* call("GET", `/v1/subdomains/${name}`, { token: s.outsider.token }), 400, /subdomain/)
      }
      // The name is the organization's own: clearing the hostname frees it.
      yield* call("PATCH", s.org, { token: s.admin.token, body: { hostname: null } })
      expectError(yield* call("GET", `/v1/subdomains/${hostname}`, { token: s.outsider.token }), 404)
    }))

  it.effect("through GitBook's official client: create, list, get, update, the sign-in list, delete; a subdomain", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const client = yield* clientFor(s.admin.token)
      const run = <A>(request: () => Promise<A>) => Effect.promise(request)
      const created = (yield* run(() => client.orgs.createOrganizationSamlProvider(s.organizationId, { label: "Okta" }))).data
      expect(created).toMatchObject({ object: "saml-provider", label: "Okta", status: "pending", defaultRole: null })
      const updated = (yield* run(() =>
        client.orgs.updateOrganizationSamlProvider(s.organizationId, created.id, {
          entityID: "urn:okta",
          ssoURL: "https://acme.okta.test/sso",
          certificate: ec.pem,
          defaultTeam: s.teamId,
          defaultRole: "comment" as MemberRole
        })
      )).data
      expect(updated).toMatchObject({ status: "active", defaultRole: "comment", defaultTeam: { id: s.teamId, title: "Writers" } })
      const listed = (yield* run(() => client.orgs.listSamlProvidersInOrganizationById(s.organizationId))).data
      expect(listed.items.map((p) => p.id)).toEqual([created.id])
      expect((yield* run(() => client.orgs.getOrganizationSamlProviderById(s.organizationId, created.id))).data).toEqual(updated)
      const logins = (yield* run(() => client.orgs.listSsoProviderLoginsInOrganization(s.organizationId))).data
      expect(logins.items).toEqual([{ id: created.id, label: "Okta", startURL: updated.service.startURL }])
      const deleted = yield* run(() => client.orgs.deleteOrganizationSamlProvider(s.organizationId, created.id))
      expect(deleted.status).toBe(204)
      const hostname = `gb-${Math.random().toString(36).slice(2, 10)}`
      yield* call("PATCH", s.org, { token: s.admin.token, body: { hostname } })
      const subdomain = (yield* run(() => client.subdomains.getSubdomain(hostname))).data
      expect(subdomain).toEqual({
        object: "subdomain",
        subdomain: hostname,
        target: { type: "organization", organization: s.organizationId },
        isActive: true
      })
    }))
})
