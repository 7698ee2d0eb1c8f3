import * as http from "node:http"
import * as HttpServer from "@effect/platform/HttpServer"
import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgStorage } from "@octavo/adapters-pg"
import type { StoragePorts } from "@octavo/domain"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ADMIN_TOKEN, call, testServer } from "./harness.js"
import { trackedPageView, world } from "./scenario.js"

/**
 * A request whose path is sent byte for byte, as an attacker's client would: HttpClient would
 * normalize `..` away. Answers the status and the parsed body.
 */
const raw = (method: string, path: string, token: string, body?: unknown) =>
  Effect.gen(function*() {
    const address = (yield* HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP server")
    const port = address.port
    return yield* Effect.async<{ readonly status: number; readonly body: ReturnType<typeof JSON.parse> }>((resume) => {
      const request = http.request({
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) }
      }, (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          resume(Effect.succeed({ status: response.statusCode ?? 0, body: text === "" ? null : JSON.parse(text) }))
        })
      })
      request.on("error", (error) => resume(Effect.die(error)))
      request.end(body === undefined ? undefined : JSON.stringify(body))
    })
  })

/** The error shape every refusal has. */
const expectRefused = (
  what: string,
  answer: { readonly status: number; readonly body: ReturnType<typeof JSON.parse> },
  statuses: ReadonlyArray<number>
) => {
  expect([what, statuses.includes(answer.status) ? "refused" : answer]).toEqual([what, "refused"])
  expect([what, answer.body?.error?.code]).toEqual([what, answer.status])
  expect([what, typeof answer.body?.error?.message]).toEqual([what, "string"])
}

const NUL = "a\u0000b"
const LONE_HIGH = "a\uD800b"
const LONE_LOW = "\uDC00"
const badTexts = [NUL, LONE_HIGH, LONE_LOW]

const suite = (storage: Layer.Layer<StoragePorts, unknown>) =>
  Effect.gen(function*() {
    const w = yield* world
    const org = w.organizationId
    const admin = w.alice.token
    const space = yield* call("POST", `/v1/orgs/${org}/spaces`, { token: admin, body: { title: "Strings" } })
    expect(space.status).toBe(201)
    const spaceId = space.body.id as string

    // Defect 2: a change request id that is neither an id nor a 32-bit number is not found, on 14 endpoints.
    const cr = yield* call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: admin, body: { subject: "One" } })
    expect(cr.status).toBe(201)
    const endpoints: ReadonlyArray<readonly [string, string, unknown?]> = [
      ["GET", ""],
      ["PATCH", "", { subject: "x" }],
      ["POST", "/content", { changes: [{ operation: "insert_page", title: "T" }] }],
      ["GET", "/content"],
      ["GET", "/content/pages"],
      ["GET", "/content/page/p1"],
      ["GET", "/content/path/intro"],
      ["GET", "/content/files"],
      ["GET", "/content/files/f1"],
      ["GET", "/content/files/f1/download"],
      ["GET", "/content/files/f1/backlinks"],
      ["GET", "/content/page/p1/links"],
      ["POST", "/merge"],
      ["POST", "/update"]
    ]
    for (const reference of ["1.5", "..", "a%20b", "2147483648", "99999999999", "%00", "-1"]) {
      for (const [method, rest, body] of endpoints) {
        const path = `/v1/spaces/${spaceId}/change-requests/${reference}${rest}`
        expectRefused(`${method} ${path}`, yield* raw(method, path, admin, body), [400, 404])
      }
    }
    expect((yield* raw("GET", `/v1/spaces/${spaceId}/change-requests/1`, admin)).status).toBe(200)

    // Defects 3 and 4: NUL and lone surrogates are refused with a 400 wherever they would be stored.
    const user = yield* call("POST", "/v1/users", { token: ADMIN_TOKEN, body: { displayName: "Plain", email: "plain@example.com" } })
    expect(user.status).toBe(201)
    yield* call("POST", `/v1/orgs/${org}/custom-fields`, { token: admin, body: { name: "notes", type: "text" } })
    for (const bad of badTexts) {
      const refused = (what: string, answer: { readonly status: number; readonly body: ReturnType<typeof JSON.parse> }) =>
        expectRefused(`${what} ${JSON.stringify(bad)}`, answer, [400])
      refused("team title", yield* call("PUT", `/v1/orgs/${org}/teams`, { token: admin, body: { title: bad } }))
      refused("team members", yield* call("PUT", `/v1/orgs/${org}/teams`, { token: admin, body: { title: "T", members: [bad] } }))
      refused("team add", yield* call("PUT", `/v1/orgs/${org}/teams/${w.teamId}/members`, { token: admin, body: { add: [bad] } }))
      refused("team remove", yield* call("PUT", `/v1/orgs/${org}/teams/${w.teamId}/members`, { token: admin, body: { remove: [bad] } }))
      refused(
        "team memberships",
        yield* call("PUT", `/v1/orgs/${org}/teams/${w.teamId}/members`, {
          token: admin,
          body: { memberships: { [bad]: { role: "member" } } }
        })
      )
      refused(
        "user email",
        yield* call("POST", "/v1/users", { token: ADMIN_TOKEN, body: { displayName: "U", email: `${bad}@example.com` } })
      )
      refused("user name", yield* call("POST", "/v1/users", { token: ADMIN_TOKEN, body: { displayName: bad, email: "u@example.com" } }))
      refused("invite email", yield* call("POST", `/v1/orgs/${org}/invites`, { token: admin, body: { emails: [`${bad}@example.com`] } }))
      refused(
        "invite email with role",
        yield* call("POST", `/v1/orgs/${org}/invites`, { token: admin, body: { emails: [{ email: `${bad}@example.com`, role: "read" }] } })
      )
      refused(
        "custom field value",
        yield* call("PATCH", `/v1/spaces/${spaceId}/custom-fields`, { token: admin, body: { values: { notes: { value: bad } } } })
      )
      refused(
        "custom field key",
        yield* call("PATCH", `/v1/spaces/${spaceId}/custom-fields`, { token: admin, body: { values: { [bad]: { value: "x" } } } })
      )
      refused(
        "custom field name",
        yield* call("POST", `/v1/orgs/${org}/custom-fields`, { token: admin, body: { name: bad, type: "text" } })
      )
      refused("space title", yield* call("PATCH", `/v1/spaces/${spaceId}`, { token: admin, body: { title: bad } }))
      refused(
        "change request subject",
        yield* call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: admin, body: { subject: bad } })
      )
      for (const field of ["title", "description", "emoji", "condition"]) {
        refused(
          `page ${field}`,
          yield* call("POST", `/v1/spaces/${spaceId}/content`, {
            token: admin,
            body: { changes: [{ operation: "insert_page", title: "P", [field]: bad }] }
          })
        )
      }
      refused(
        "page markdown",
        yield* call("POST", `/v1/spaces/${spaceId}/content`, {
          token: admin,
          body: { changes: [{ operation: "insert_page", title: "P", document: { markdown: bad } }] }
        })
      )
      const paragraph = (text: string) => ({
        object: "block",
        type: "paragraph",
        nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }]
      })
      refused(
        "page document",
        yield* call("POST", `/v1/spaces/${spaceId}/content`, {
          token: admin,
          body: {
            changes: [{ operation: "insert_page", title: "P", document: { document: { object: "document", nodes: [paragraph(bad)] } } }]
          }
        })
      )
      refused(
        "page document data key",
        yield* call("POST", `/v1/spaces/${spaceId}/content`, {
          token: admin,
          body: {
            changes: [{
              operation: "insert_page",
              title: "P",
              document: { document: { object: "document", data: { [bad]: 1 }, nodes: [] } }
            }]
          }
        })
      )
      for (const field of ["name", "contentType"]) {
        refused(
          `file ${field}`,
          yield* call("POST", `/v1/spaces/${spaceId}/content`, {
            token: admin,
            body: {
              changes: [{ operation: "insert_files", files: [{ name: "a.txt", contentType: "text/plain", base64: "aGk=", [field]: bad }] }]
            }
          })
        )
      }
    }
    // NUL in a path parameter: custom field names, page paths, email domains.
    for (
      const path of [
        `/v1/orgs/${org}/custom-fields/a%00b`,
        `/v1/spaces/${spaceId}/content/path/a%00b`,
        "/v1/orgs/by-email-domain/a%00b.com"
      ]
    ) {
      expectRefused(path, yield* raw("GET", path, admin), [400, 404])
    }
    for (const method of ["PATCH", "DELETE"]) {
      const path = `/v1/orgs/${org}/custom-fields/a%00b`
      expectRefused(`${method} ${path}`, yield* raw(method, path, admin, method === "PATCH" ? { title: "x" } : undefined), [400])
    }
    // The same bodies with good text are accepted: the refusals above are for the text alone.
    const good = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
      token: admin,
      body: {
        changes: [{
          operation: "insert_page",
          title: "Good \uD83D\uDE00",
          document: {
            document: {
              object: "document",
              data: { note: 1 },
              nodes: [{
                object: "block",
                type: "paragraph",
                nodes: [{ object: "text", leaves: [{ object: "leaf", text: "ok \uD83D\uDE00", marks: [] }] }]
              }]
            }
          }
        }, { operation: "insert_files", files: [{ name: "a.txt", contentType: "text/plain", base64: "aGk=" }] }]
      }
    })
    expect([good.status, good.body]).toEqual([200, good.body])
    // A well-formed pair outside the basic plane is text like any other.
    const emoji = yield* call("PUT", `/v1/orgs/${org}/teams`, { token: admin, body: { title: "Team \uD83D\uDE00" } })
    expect([emoji.status, emoji.body.title]).toEqual([201, "Team \uD83D\uDE00"])

    // Defect 10: fields named like Object.prototype's keys keep their values.
    for (const name of ["__proto__", "constructor"]) {
      expect((yield* call("POST", `/v1/orgs/${org}/custom-fields`, { token: admin, body: { name, type: "text" } })).status).toBe(201)
    }
    const set = yield* raw(
      "PATCH",
      `/v1/spaces/${spaceId}/custom-fields`,
      admin,
      JSON.parse("{\"values\":{\"__proto__\":{\"value\":\"proto value\"},\"constructor\":{\"value\":\"constructor value\"}}}")
    )
    expect(set.status).toBeLessThan(300)
    const read = yield* call("GET", `/v1/spaces/${spaceId}/custom-fields`, { token: admin })
    expect(read.status).toBe(200)
    const values = (read.body as ReadonlyArray<{ customField: { name: string }; value?: unknown }>)
      .map((entry) => [entry.customField.name, entry.value ?? null])
      .sort()
    expect(values).toEqual([["__proto__", "proto value"], ["constructor", "constructor value"], ["notes", null]])
    expect((yield* call("GET", `/v1/orgs/${org}/custom-fields/__proto__`, { token: admin })).body.name).toBe("__proto__")
    const notAnObject = yield* call("PATCH", `/v1/spaces/${spaceId}/custom-fields`, {
      token: admin,
      body: { values: [["notes", { value: "x" }]] }
    })
    expectRefused("values as a list", notAnObject, [400])

    // Issue 38: a bad value inside an array or a query filter names its field and changes nothing.
    const teams = `/v1/orgs/${org}/teams`
    const teamCount = Effect.map(call("GET", teams, { token: admin }), (listed) => listed.body.count)
    const teamsBefore = yield* teamCount
    const membersBefore = (yield* call("GET", `${teams}/${w.teamId}/members`, { token: admin })).body.count
    for (const bad of ["", "\u00e9", "a\u0001b", "../x", "%00", "x".repeat(10_000), "@", "a@b"]) {
      const created = yield* call("PUT", teams, { token: admin, body: { title: "Refused", members: [w.bob.id, bad] } })
      expectRefused(`members: ${bad.slice(0, 12)}`, created, [400])
      expect(created.body.error.message).toBe("members.1: must be a user id or an email address")
      const added = yield* call("PUT", `${teams}/${w.teamId}/members`, { token: admin, body: { add: [bad] } })
      expectRefused(`add: ${bad.slice(0, 12)}`, added, [400])
      expect(added.body.error.message).toBe("add.0: must be a user id or an email address")
      const keyed = yield* call("PUT", `${teams}/${w.teamId}/members`, {
        token: admin,
        body: { memberships: { [bad]: { role: "member" } } }
      })
      expectRefused(`memberships: ${bad.slice(0, 12)}`, keyed, [400])
    }
    expect(yield* teamCount).toBe(teamsBefore)
    expect((yield* call("GET", `${teams}/${w.teamId}/members`, { token: admin })).body.count).toBe(membersBefore)
    for (const space of ["", "1.5", "'", "*", "a%20%26%20b", "%FF", "x".repeat(5_000)]) {
      const listed = yield* raw("GET", `/v1/orgs/${org}/sites?space=${space}`, admin)
      expectRefused(`sites?space=${space.slice(0, 12)}`, listed, [400])
      expect(listed.body.error.message).toBe("space: must be an id (letters, digits, - and _)")
    }

    // Found by the systematic fuzz (fuzzSystematic.test.ts): a NUL in an aggregate filter's value, and in an
    // organization's default site, reached PostgreSQL (500 there). Both are decoded by the domain's schemas first.
    const site = yield* call("POST", `/v1/orgs/${org}/sites`, { token: admin, body: { title: "Insights" } })
    expect(site.status).toBe(201)
    const events = `/v1/orgs/${org}/sites/${site.body.id}/insights/events`
    const tracked = yield* call("POST", events, { token: admin, body: { events: [trackedPageView] } })
    expect(tracked.status).toBe(204)
    const aggregate = (where: unknown) =>
      call("POST", `${events}/aggregate`, {
        token: admin,
        body: { select: [{ column: "url" }, { column: "eventsCount" }], groupBy: [{ column: "url" }], where, range: "last30Days" }
      })
    const counted = yield* aggregate([{ column: "url", values: [trackedPageView.location.url] }])
    expect([counted.status, counted.body.columns]).toEqual([200, [
      { column: "url", values: [trackedPageView.location.url] },
      { column: "eventsCount", values: [1] }
    ]])
    const unstorable = [[NUL, "must not contain NUL characters"], [LONE_HIGH, "must be well-formed Unicode (no lone surrogates)"]]
    for (const [bad, rule] of unstorable) {
      const filtered = yield* aggregate([{ column: "url", values: [trackedPageView.location.url, bad] }])
      expectRefused(`where value ${JSON.stringify(bad)}`, filtered, [400])
      expect(filtered.body.error.message).toBe(`where.0.values.1: ${rule}`)
      const claimed = yield* aggregate([{ column: "visitorClaim", claim: bad, values: ["pro"] }])
      expectRefused(`where claim ${JSON.stringify(bad)}`, claimed, [400])
      expect(claimed.body.error.message).toBe(`where.0.claim: ${rule}`)
    }
    for (const bad of [NUL, "", "../x", "\u00e9", "x".repeat(10_000)]) {
      const paged = yield* aggregate([{ column: "page", values: [{ page: bad, space: spaceId }] }])
      expectRefused(`where page ${JSON.stringify(bad.slice(0, 12))}`, paged, [400])
      expect(paged.body.error.message).toMatch(/^where\.0\.values\.0\.page: /)
    }
    // The same query answers as before: a refused one recorded nothing.
    expect((yield* aggregate([{ column: "url", values: [trackedPageView.location.url] }])).body).toEqual(counted.body)

    const organization = (yield* call("GET", `/v1/orgs/${org}`, { token: admin })).body
    for (const bad of [NUL, LONE_HIGH, "", "../x", "\u00e9", "x".repeat(10_000)]) {
      const patched = yield* call("PATCH", `/v1/orgs/${org}`, {
        token: admin,
        body: { title: "Changed", defaultContent: { type: "site", site: bad } }
      })
      expectRefused(`defaultContent.site ${JSON.stringify(bad.slice(0, 12))}`, patched, [400])
      expect(patched.body.error.message).toMatch(/^defaultContent\.site: [^;]+$/)
    }
    expect((yield* call("GET", `/v1/orgs/${org}`, { token: admin })).body).toEqual(organization)
    const pointed = yield* call("PATCH", `/v1/orgs/${org}`, {
      token: admin,
      body: { defaultContent: { type: "site", site: site.body.id } }
    })
    expect([pointed.status, pointed.body.defaultContent]).toEqual([200, { type: "site", site: site.body.id }])
  }).pipe(Effect.provide(testServer(storage)), Effect.scoped)

describe("bad strings and references answer 400 or 404, never 500", () => {
  it.live("memory", () => suite(MemoryStorage), 60_000)
  it.live("embedded PostgreSQL (PGlite)", () => suite(PgStorage.pipe(Layer.provide(PgliteClient()))), 60_000)
})
