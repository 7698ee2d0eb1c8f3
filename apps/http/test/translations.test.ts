import type { TranslationLanguage } from "@gitbook/api/client"
import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import { translationLanguages } from "@octavo/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { type Answer, call, PUBLIC_URL, testServer } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { addMember, chars, newUser } from "./scenario.js"

// Translation settings over HTTP (api.md; conventions-2.md §6, decision 7): every limit at its edge, every status.

/** Memory by default; `OCTAVO_TRANSLATIONS_STORAGE=pglite` or `=pg` (OCTAVO_TEST_DATABASE_URL) runs the same file on PostgreSQL. */
const storage = (() => {
  const url = process.env["OCTAVO_TEST_DATABASE_URL"]
  switch (process.env["OCTAVO_TRANSLATIONS_STORAGE"]) {
    case "pglite":
      return PgStorage.pipe(Layer.provide(PgliteClient()))
    case "pg":
      if (url === undefined) throw new Error("OCTAVO_TRANSLATIONS_STORAGE=pg needs OCTAVO_TEST_DATABASE_URL")
      return PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(url)))
    default:
      return MemoryStorage
  }
})()

/** An organization with an admin, a reader, an editor and a guest; and an outsider with an organization of its own. */
const setup = Effect.gen(function*() {
  const admin = yield* newUser("Tia Translator")
  const reader = yield* newUser("Rae Reader")
  const editor = yield* newUser("Eli Editor")
  const guest = yield* newUser("Gia Guest")
  const outsider = yield* newUser("Ozzy Outsider")
  const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
  yield* addMember(organizationId, admin, reader, "read")
  yield* addMember(organizationId, admin, editor, "create")
  yield* addMember(organizationId, admin, guest, null)
  const otherOrganizationId = (yield* call("POST", "/v1/orgs", { token: outsider.token, body: { title: "Other" } })).body.id as string
  return { admin, reader, editor, guest, outsider, organizationId, otherOrganizationId, base: `/v1/orgs/${organizationId}/translations` }
})
type Setup = Effect.Effect.Success<typeof setup>

const create = (s: Setup, body: unknown) =>
  Effect.map(call("POST", s.base, { token: s.admin.token, body }), (answer) => {
    expect([answer.status, answer.body]).toEqual([201, answer.body])
    return answer.body as { id: string } & Record<string, unknown>
  })

const expectError = (answer: Answer, status: number, message?: string | RegExp) => {
  expect([answer.status, answer.body]).toEqual([status, { error: { code: status, message: expect.any(String) } }])
  if (typeof message === "string") expect(answer.body.error.message).toBe(message)
  else if (message !== undefined) expect(answer.body.error.message).toMatch(message)
}

layer(testServer(storage), { excludeTestServices: true, timeout: 120_000 })("translation settings over HTTP", (it) => {
  it.effect("create (201 + Location), get, replace the title keeping the languages, replace both, delete (204)", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const created = yield* call("POST", s.base, { token: s.admin.token, body: { title: "Docs", languages: ["fr", "pt-br"] } })
      expect(created.status).toBe(201)
      const id = created.body.id as string
      const location = `${PUBLIC_URL}${s.base}/${id}`
      expect(created.headers["location"]).toBe(location)
      expect(created.body).toEqual({
        object: "translation-settings",
        id,
        title: "Docs",
        languages: ["fr", "pt-br"],
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: created.body.createdAt,
        permissions: { edit: true },
        urls: { location }
      })
      expect((yield* call("GET", `${s.base}/${id}`, { token: s.admin.token })).body).toEqual(created.body)
      const renamed = yield* call("PUT", `${s.base}/${id}`, { token: s.admin.token, body: { title: "Handbook" } })
      expect([renamed.status, renamed.body]).toEqual([200, {
        ...created.body,
        title: "Handbook",
        updatedAt: expect.any(String)
      }])
      expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt))
      const replaced = yield* call("PUT", `${s.base}/${id}`, { token: s.admin.token, body: { title: "Handbook", languages: [] } })
      expect(replaced.body.languages).toEqual([])
      expect((yield* create(s, { title: "Plain" })).languages).toEqual([])
      const gone = yield* call("DELETE", `${s.base}/${id}`, { token: s.admin.token })
      expect([gone.status, gone.body]).toEqual([204, null])
      expectError(yield* call("GET", `${s.base}/${id}`, { token: s.admin.token }), 404)
      expectError(yield* call("PUT", `${s.base}/${id}`, { token: s.admin.token, body: { title: "x" } }), 404)
      expectError(yield* call("DELETE", `${s.base}/${id}`, { token: s.admin.token }), 404)
    }))

  it.effect("limits at their edges: title 1-100, languages unique of GitBook's 39; a refused write changes nothing", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const settings = yield* create(s, { title: "Edges", languages: ["en"] })
      const path = `${s.base}/${settings.id}`
      const cases: ReadonlyArray<readonly [unknown, number, string?]> = [
        [{ title: "a" }, 200],
        [{ title: chars(100) }, 200],
        [{ title: chars(101) }, 400, "title: must be at most 100 characters, got 101"],
        [{ title: "" }, 400, "title: must not be empty"],
        [{}, 400],
        [{ title: 7 }, 400],
        [{ title: "All", languages: [...translationLanguages] }, 200],
        [{ title: "Dup", languages: ["fr", "de", "fr"] }, 400, "languages: must not name a language twice, got fr twice"],
        [{ title: "Bcp", languages: ["en-US"] }, 400],
        [{ title: "Case", languages: ["FR"] }, 400],
        [{ title: "NotArray", languages: "fr" }, 400],
        [{ title: "Null", languages: null }, 400]
      ]
      for (const [body, status, message] of cases) {
        const before = (yield* call("GET", path, { token: s.admin.token })).body
        const answer = yield* call("PUT", path, { token: s.admin.token, body })
        expect([body, answer.status]).toEqual([body, status])
        if (status === 400) {
          expectError(answer, 400, message)
          expect((yield* call("GET", path, { token: s.admin.token })).body).toEqual(before)
          expectError(yield* call("POST", s.base, { token: s.admin.token, body }), 400, message)
        }
      }
      const final = (yield* call("GET", path, { token: s.admin.token })).body
      expect(final).toMatchObject({ title: "All", languages: [...translationLanguages] })
      expect(final.languages).toHaveLength(39)
      expect((yield* create(s, { title: chars(100), languages: ["yue", "zh-tw"] })).title).toBe(chars(100))
      const count = (yield* call("GET", s.base, { token: s.admin.token })).body.count
      expect(count).toBe(2)
    }))

  it.effect("members with a role read (edit: false), admins write; guests 403; 401 without a token; 404 outside", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const settings = yield* create(s, { title: "Guarded" })
      const one = `${s.base}/${settings.id}`
      const read = yield* call("GET", one, { token: s.reader.token })
      expect([read.status, read.body]).toEqual([200, { ...settings, permissions: { edit: false } }])
      const listed = yield* call("GET", s.base, { token: s.reader.token })
      expect(listed.body).toEqual({ items: [{ ...settings, permissions: { edit: false } }], count: 1 })
      const reads = [["GET", s.base, undefined], ["GET", one, undefined]] as const
      const writes = [["POST", s.base, { title: "New" }], ["PUT", one, { title: "New" }], ["DELETE", one, undefined]] as const
      for (const [method, path, body] of [...reads, ...writes]) {
        expectError(yield* call(method, path, { body }), 401)
        expectError(yield* call(method, path, { token: "not-a-token", body }), 401)
        expectError(yield* call(method, path, { token: s.outsider.token, body }), 404)
        expectError(yield* call(method, path, { token: s.guest.token, body }), 403)
      }
      for (const [method, path, body] of writes) {
        expectError(yield* call(method, path, { token: s.reader.token, body }), 403)
        expectError(yield* call(method, path, { token: s.editor.token, body }), 403)
      }
      // A's settings through B, where the outsider is admin.
      const through = `/v1/orgs/${s.otherOrganizationId}/translations/${settings.id}`
      for (const [method, body] of [["GET", undefined], ["PUT", { title: "Mine" }], ["DELETE", undefined]] as const) {
        expectError(yield* call(method, through, { token: s.outsider.token, body }), 404)
      }
      expect((yield* call("GET", `/v1/orgs/${s.otherOrganizationId}/translations`, { token: s.outsider.token })).body)
        .toEqual({ items: [], count: 0 })
      expect((yield* call("GET", one, { token: s.admin.token })).body).toEqual(settings)
      expectError(yield* call("GET", `${s.base}/bad%20id`, { token: s.admin.token }), 400)
    }))

  it.effect("lists page by keyset, each once while more are added; limit 1-1000; a forged page is 400", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const made: Array<string> = []
      for (let i = 0; i < 5; i++) made.push((yield* create(s, { title: `T${i}` })).id)
      const seen: Array<string> = []
      let page: string | undefined
      for (let round = 0; round < 10; round++) {
        const answer = yield* call("GET", `${s.base}?limit=2${page === undefined ? "" : `&page=${page}`}`, { token: s.admin.token })
        expect(answer.status).toBe(200)
        seen.push(...answer.body.items.map((t: { id: string }) => t.id))
        made.push((yield* create(s, { title: `Late${round}` })).id)
        page = answer.body.next?.page
        if (page === undefined) break
      }
      expect(seen).toEqual(made.slice(0, seen.length))
      expect(new Set(seen).size).toBe(seen.length)
      expect((yield* call("GET", `${s.base}?limit=1000`, { token: s.admin.token })).status).toBe(200)
      for (const query of ["limit=0", "limit=1001", "limit=1.5", "page=forged"]) {
        expectError(yield* call("GET", `${s.base}?${query}`, { token: s.admin.token }), 400)
      }
      // A token of another list is refused, not misread.
      const other = yield* call("GET", `/v1/orgs/${s.organizationId}/saml?limit=1`, { token: s.admin.token })
      expect(other.status).toBe(200)
    }))

  it.effect("GitBook's client reads the settings at its translation paths; its own Translation body is refused with 400", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const settings = yield* create(s, { title: "Docs", languages: ["ja"] })
      const client = yield* clientFor(s.admin.token)
      const listed = yield* Effect.promise(() => client.orgs.listTranslations(s.organizationId))
      expect(listed.data.items).toEqual([settings])
      const got = yield* Effect.promise(() => client.orgs.getTranslation(s.organizationId, settings.id))
      expect(got.data).toEqual(settings)
      // Decision 7: GitBook's `Translation` model is not served.
      const refused = yield* Effect.promise(() =>
        client.orgs.createTranslation(s.organizationId, { source: { space: "s1" } as never, language: "fr" as TranslationLanguage }).then(
          () => 0,
          (error: { readonly response?: Response }) => error.response?.status ?? -1
        )
      )
      expect(refused).toBe(400)
      const deleted = yield* Effect.promise(() => client.orgs.deleteTranslation(s.organizationId, settings.id))
      expect(deleted.status).toBe(204)
    }))
})
