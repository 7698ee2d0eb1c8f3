import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Either, Layer, Option, TestClock } from "effect"
import {
  Actor,
  FetchFailed,
  FetchGuard,
  MAX_PROCESS_ERRORS,
  type OpenAPISpec,
  OpenAPISpecId,
  OpenAPISpecRepository,
  type OpenAPISpecVersion,
  OpenAPISpecVersionId,
  OpenAPISpecVersionRepository,
  OpenAPISpecs,
  OpenAPISpecVersions,
  OpenAPISpecWorker,
  type OrganizationId,
  type StoragePorts,
  WebFetcher
} from "../../src/index.js"
import { adminOfNewOrganization, at, makeMember, makeOrganization, makeUser, servicesWith, uniqueId } from "./fixtures.js"
import { walk } from "./walk.js"

const failure = <A, E extends { _tag: string; message: string }>(result: Either.Either<A, E>) =>
  Either.isLeft(result) ? `${result.left._tag}: ${result.left.message}` : "success"

const first = (limit = 50) => ({ limit, after: Option.none() })

const json = (title: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: "3.1.0", info: { title, version: "1.0.0" }, paths: {}, ...extra })

/** What the fake web serves: a text, a status, a timeout; and how often each URL was fetched. */
type Served = { readonly text: string; readonly status?: number } | { readonly timeout: true } | { readonly refused: string }
const served = new Map<string, Served>()
const fetches = new Map<string, number>()

const FakeWeb = Layer.mergeAll(
  Layer.succeed(WebFetcher, {
    fetch: (url) =>
      Effect.suspend(() => {
        fetches.set(url, (fetches.get(url) ?? 0) + 1)
        const answer = served.get(url)
        if (answer === undefined) return Effect.succeed({ url, status: 404, contentType: "text/plain", body: new Uint8Array() })
        if ("timeout" in answer) return Effect.fail(new FetchFailed({ url, reason: "no answer within 10 s", timedOut: true }))
        if ("refused" in answer) return Effect.fail(new FetchFailed({ url, reason: answer.refused }))
        // A yield between the claim and the answer, as a real fetch has: other workers run meanwhile.
        return Effect.as(Effect.yieldNow(), {
          url,
          status: answer.status ?? 200,
          contentType: "application/json",
          body: new TextEncoder().encode(answer.text)
        })
      })
  }),
  Layer.succeed(FetchGuard, {
    check: (url) =>
      url.startsWith("http://10.")
        ? Effect.fail(
          new FetchFailed({ url, reason: "the address 10.0.0.1 is a private network address, which this server may not fetch" })
        )
        : Effect.void
  })
)

const specOf = (organizationId: OrganizationId, fields: Partial<OpenAPISpec> = {}): OpenAPISpec => ({
  id: OpenAPISpecId.make(uniqueId("oas")),
  organizationId,
  slug: uniqueId("spec").toLowerCase(),
  createdAt: at(1),
  updatedAt: at(1),
  processingState: "complete",
  lastProcessedErrors: [],
  lastProcessedErrorCount: 0,
  submittedAt: at(1),
  ...fields
})

const versionOf = (spec: OpenAPISpec, number: number, fields: Partial<OpenAPISpecVersion> = {}): OpenAPISpecVersion => ({
  id: OpenAPISpecVersionId.make(uniqueId("v")),
  specId: spec.id,
  number,
  createdAt: at(number),
  hash: `hash-${number}`,
  format: "json",
  ...fields
})

/** The openapi slice of the storage contract: the repositories, the job queue, then the use cases over a fake web. */
export const openapiContract = (storage: Layer.Layer<StoragePorts>) =>
  layer(
    servicesWith(FakeWeb).pipe(Layer.provideMerge(storage)),
    { timeout: 60_000 }
  )("openapi", (it) => {
    it.effect("storage: specs by slug per organization, listed by creation; versions newest first, texts exact; a spec goes with its versions", () =>
      Effect.gen(function*() {
        const specs = yield* OpenAPISpecRepository
        const versions = yield* OpenAPISpecVersionRepository
        const acme = yield* makeOrganization()
        const other = yield* makeOrganization()
        const b = specOf(acme.id, { createdAt: at(2), sourceURL: "https://api.example/b.yaml", lastProcessErrorCode: "FETCH_ERROR" })
        const a = specOf(acme.id, {
          createdAt: at(1),
          lastProcessedErrors: [{ message: "x", code: "FETCH_ERROR" }],
          lastProcessedErrorCount: 3,
          lastProcessedAt: at(3),
          claim: "c1",
          leasedUntil: at(4)
        })
        yield* specs.insert(b)
        yield* specs.insert(a)
        expect(yield* specs.findBySlug(acme.id, a.slug)).toEqual(Option.some(a))
        expect(yield* specs.findBySlug(other.id, a.slug)).toEqual(Option.none())
        expect(failure(yield* Effect.either(specs.insert(specOf(acme.id, { slug: a.slug }))))).toBe(
          `Conflict: An OpenAPI spec with the slug ${a.slug} exists already`
        )
        yield* specs.insert(specOf(other.id, { slug: a.slug }))
        expect((yield* walk((page) => specs.list(acme.id, page), 1)).map((s) => s.id)).toEqual([a.id, b.id])
        expect((yield* specs.list(acme.id, first(1))).count).toBe(2)

        const cleared = { ...b, sourceURL: undefined, lastProcessErrorCode: undefined, lastVersion: OpenAPISpecVersionId.make("v1") }
        yield* specs.update(cleared)
        expect(Option.getOrThrow(yield* specs.lockBySlug(acme.id, b.slug))).toEqual(
          { ...b, lastVersion: "v1", sourceURL: undefined, lastProcessErrorCode: undefined }
        )

        // Texts come back byte for byte: a byte order mark, CRLF, trailing spaces, astral characters.
        const text = "\uFEFF{\"a\": \"\u{1F600}\"}  \r\n"
        const v1 = versionOf(a, 1)
        const v2 = versionOf(a, 2, { format: "yaml", sourceURL: "https://api.example/a.yaml" })
        const v3 = versionOf(a, 3)
        for (const v of [v2, v1, v3]) yield* versions.insert(v, v === v2 ? text : `text ${v.number}`)
        expect(yield* versions.find(a.id, v2.id)).toEqual(Option.some(v2))
        expect(yield* versions.find(b.id, v2.id)).toEqual(Option.none())
        expect(yield* versions.text(v2.id)).toEqual(Option.some(text))
        expect((yield* walk((page) => versions.list(a.id, page), 2)).map((v) => v.id)).toEqual([v3.id, v2.id, v1.id])
        expect((yield* versions.list(a.id, first(1))).count).toBe(3)

        yield* specs.remove(a.id)
        expect(yield* specs.findBySlug(acme.id, a.slug)).toEqual(Option.none())
        expect(yield* versions.text(v1.id)).toEqual(Option.none())
        expect((yield* versions.list(a.id, first())).count).toBe(0)
      }))

    it.effect("storage: a job is taken once, oldest submission first; a lapsed lease is taken over and the old claim loses its hold", () =>
      Effect.gen(function*() {
        const specs = yield* OpenAPISpecRepository
        // No job of another test waits.
        yield* (yield* OpenAPISpecWorker).processPending
        const acme = yield* makeOrganization()
        const jobs = [at(3), at(1), at(2)].map((submittedAt) => specOf(acme.id, { processingState: "pending", submittedAt }))
        for (const job of jobs) yield* specs.insert(job)
        yield* specs.insert(specOf(acme.id, { submittedAt: at(0) }))

        const taken = yield* specs.claimJob("first", at(10), at(11))
        expect(Option.getOrThrow(taken)).toEqual({ ...jobs[1], processingState: "progress", claim: "first", leasedUntil: at(11) })
        // Takers at the same time never share a job.
        const claims = yield* Effect.forEach(["x", "y", "z", "w"], (claim) => specs.claimJob(claim, at(10), at(11)), {
          concurrency: "unbounded"
        })
        const ids = claims.flatMap(Option.toArray).map((job) => job.id)
        expect([...ids].sort()).toEqual([jobs[0]!.id, jobs[2]!.id].sort())
        expect(yield* specs.lockClaimed(jobs[1]!.id, "first")).toEqual(
          Option.some({ ...jobs[1], processingState: "progress", claim: "first", leasedUntil: at(11) })
        )
        expect(yield* specs.lockClaimed(jobs[1]!.id, "x")).toEqual(Option.none())

        // Past the leases, the jobs are taken again, oldest first; the first claim no longer holds.
        expect(yield* specs.claimJob("late", at(11), at(12))).toEqual(Option.none())
        const again = yield* specs.claimJob("second", at(12), at(13))
        expect(Option.map(again, (job) => [job.id, job.claim])).toEqual(Option.some([jobs[1]!.id, "second"]))
        expect(yield* specs.lockClaimed(jobs[1]!.id, "first")).toEqual(Option.none())
        for (const job of jobs) yield* specs.update({ ...job, processingState: "complete" })
        expect(yield* specs.claimJob("none", at(100), at(101))).toEqual(Option.none())
      }))

    it.effect("input: slug, source and visibility at their limits; nothing is stored for a refused request", () =>
      Effect.gen(function*() {
        const service = yield* OpenAPISpecs
        const worker = yield* OpenAPISpecWorker
        const { organization, run } = yield* adminOfNewOrganization
        const create = (input: unknown) => run(service.create(organization.id, input as never)).pipe(Effect.either, Effect.map(failure))
        const text = json("Pets")
        expect(yield* create({ slug: "a".repeat(100), source: { text } })).toBe("success")
        expect(yield* create({ slug: "a".repeat(101), source: { text } })).toBe(
          "InvalidInput: slug: must be at most 100 characters, got 101"
        )
        expect(yield* create({ slug: "", source: { text } })).toBe("InvalidInput: slug: must not be empty")
        expect(yield* create({ slug: "Pets", source: { text } })).toMatch(/^InvalidInput: slug: must be lower-case letters and digits/)
        expect(yield* create({ slug: "pets--v2", source: { text } })).toMatch(/^InvalidInput: slug: must be lower-case/)
        const url2048 = `https://api.example/${"a".repeat(2048 - 20)}`
        expect(url2048.length).toBe(2048)
        expect(yield* create({ slug: "long-url", source: { url: url2048 } })).toBe("success")
        expect(yield* create({ slug: "longer-url", source: { url: `${url2048}b` } })).toBe(
          "InvalidInput: source.url: must be an http or https URL of at most 2048 characters"
        )
        expect(yield* create({ slug: "ftp", source: { url: "ftp://api.example/spec.json" } })).toBe(
          "InvalidInput: source.url: must be an http or https URL of at most 2048 characters"
        )
        expect(yield* create({ slug: "private", source: { url: "http://10.0.0.1/spec.json" } })).toBe(
          "InvalidInput: source.url: the address 10.0.0.1 is a private network address, which this server may not fetch"
        )
        expect(yield* create({ slug: "both", source: { url: "https://api.example/a.json", text } })).toBe(
          "InvalidInput: source: must have exactly one of url and text"
        )
        expect(yield* create({ slug: "neither", source: {} })).toBe("InvalidInput: source: must have exactly one of url and text")
        expect(yield* create({ slug: "empty", source: { text: "" } })).toBe("InvalidInput: source.text: must not be empty")
        expect(yield* create({ slug: "public", source: { text }, visibility: "public" })).toBe(
          "InvalidInput: visibility: is not supported: an OpenAPI spec is visible to its organization's members only"
        )
        expect(yield* create({ slug: "a".repeat(100), source: { text } })).toBe(
          `Conflict: An OpenAPI spec with the slug ${"a".repeat(100)} exists already`
        )
        expect(yield* create({ slug: "broken", source: { text: "{\"openapi\": \"3.1.0\"" } })).toMatch(
          /^InvalidInput: source\.text: is not a valid OpenAPI document: JSON: /
        )
        const listed = yield* run(service.list(organization.id, first()))
        // Both made at the same (test) instant: listed by id then.
        expect(listed.items.map((view) => view.spec.slug).sort()).toEqual(["a".repeat(100), "long-url"])
        yield* worker.processPending
      }))

    it.effect("processing: JSON and YAML, versions, the fields required, internal references resolved, errors counted and capped", () =>
      Effect.gen(function*() {
        const service = yield* OpenAPISpecs
        const specVersions = yield* OpenAPISpecVersions
        const worker = yield* OpenAPISpecWorker
        const { organization, run } = yield* adminOfNewOrganization
        const put = (slug: string, text: string) =>
          run(service.put(organization.id, slug, { source: { text } })).pipe(Effect.either, Effect.map(failure))
        const yaml = [
          "openapi: 3.0.3",
          "info: {title: Pets, version: \"1\"}",
          "paths:",
          "  /pets/{id}:",
          "    get:",
          "      responses:",
          "        '200': {$ref: '#/components/responses/a~1b~0c'}",
          "components:",
          "  responses:",
          "    a/b~c: {description: ok}",
          ""
        ].join("\n")
        expect(yield* put("yaml", yaml)).toBe("success")
        expect(yield* run(specVersions.latestContent(organization.id, "yaml"))).toEqual({ text: yaml, format: "yaml" })
        expect(yield* put("swagger", JSON.stringify({ swagger: "2.0", info: { title: "T", version: "1" }, paths: {} }))).toBe("success")
        // 3.1 may have webhooks or components instead of paths; 3.0 may not.
        const noPaths = (openapi: string) => JSON.stringify({ openapi, info: { title: "T", version: "1" }, components: {} })
        expect(yield* put("webhooks-only", noPaths("3.1.1"))).toBe("success")
        expect(yield* put("no-paths", noPaths("3.0.0"))).toBe(
          "InvalidInput: source.text: is not a valid OpenAPI document: paths: is required"
        )
        expect(yield* put("version", JSON.stringify({ openapi: "3.2.0", info: { title: "T", version: 1 }, paths: {} }))).toBe(
          "InvalidInput: source.text: is not a valid OpenAPI document: openapi: must be 3.0.x or 3.1.x, got \"3.2.0\"; info.version: must be a string, got a number"
        )
        expect(yield* put("nothing", "[]")).toBe(
          "InvalidInput: source.text: is not a valid OpenAPI document: the document must be an object of OpenAPI fields, got an array"
        )
        const refs = Array.from({ length: 25 }, (_, i) => ({ $ref: `#/components/schemas/missing${i}` }))
        const broken = yield* put("refs", json("T", { components: { schemas: { list: { anyOf: refs } } } }))
        expect(broken).toBe(
          "InvalidInput: source.text: is not a valid OpenAPI document: $ref \"#/components/schemas/missing0\" at /components/schemas/list/anyOf/0 does not resolve; $ref \"#/components/schemas/missing1\" at /components/schemas/list/anyOf/1 does not resolve; $ref \"#/components/schemas/missing2\" at /components/schemas/list/anyOf/2 does not resolve (and 22 more)"
        )
        // External references are not fetched, nor judged.
        expect(yield* put("external", json("T", { components: { schemas: { a: { $ref: "other.yaml#/A" } } } }))).toBe("success")
        expect((yield* run(service.list(organization.id, first()))).count).toBe(4)

        // The worker records the same checks as errors: the first MAX_PROCESS_ERRORS, and their count.
        served.set("https://api.example/refs.json", { text: json("T", { components: { schemas: { list: { anyOf: refs } } } }) })
        yield* run(service.create(organization.id, { slug: "refs-by-url", source: { url: "https://api.example/refs.json" } }))
        yield* worker.processPending
        const failed = (yield* run(service.get(organization.id, "refs-by-url"))).spec
        expect(failed).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR", lastProcessedErrorCount: 25 })
        expect(failed.lastProcessedErrors).toHaveLength(MAX_PROCESS_ERRORS)
        expect(failed.lastProcessedErrors[19]).toEqual({
          code: "UNRESOLVED_REF",
          message: "$ref \"#/components/schemas/missing19\" at /components/schemas/list/anyOf/19 does not resolve"
        })
        expect(failed.lastVersion).toBeUndefined()
      }))

    it.effect("URL sources: pending, then the worker makes a version only when the content changes; failures keep the last version", () =>
      Effect.gen(function*() {
        const service = yield* OpenAPISpecs
        const specVersions = yield* OpenAPISpecVersions
        const worker = yield* OpenAPISpecWorker
        const { organization, run } = yield* adminOfNewOrganization
        const url = `https://api.example/${uniqueId("pets")}.json`
        served.set(url, { text: json("Pets") })
        const created = yield* run(service.create(organization.id, { slug: "pets", source: { url } }))
        expect(created.spec).toMatchObject({ processingState: "pending", sourceURL: url, lastProcessedErrorCount: 0 })
        expect(created.spec.lastVersion).toBeUndefined()
        expect(failure(yield* Effect.either(run(specVersions.latestVersion(organization.id, "pets"))))).toBe(
          "NotFound: version of the OpenAPI spec pets was not found"
        )
        expect(yield* worker.processPending).toBe(1)
        const done = (yield* run(service.get(organization.id, "pets"))).spec
        expect(done).toMatchObject({ processingState: "complete", sourceURL: url })
        expect(done.lastProcessErrorCode).toBeUndefined()
        const v1 = (yield* run(specVersions.latestVersion(organization.id, "pets"))).version
        expect(v1).toMatchObject({ id: done.lastVersion, number: 1, format: "json", sourceURL: url })

        // The same URL again fetches again; the same content makes no version.
        yield* run(service.put(organization.id, "pets", { source: { url } }))
        expect(yield* worker.processPending).toBe(1)
        expect(fetches.get(url)).toBe(2)
        expect((yield* run(specVersions.listVersions(organization.id, "pets", first()))).count).toBe(1)

        served.set(url, { text: json("Pets v2") })
        yield* run(service.put(organization.id, "pets", { source: { url } }))
        yield* worker.processPending
        const versions = yield* run(specVersions.listVersions(organization.id, "pets", first()))
        expect(versions.items.map((view) => view.version.number)).toEqual([2, 1])
        expect(yield* run(specVersions.latestContent(organization.id, "pets"))).toEqual({ text: json("Pets v2"), format: "json" })
        const v2 = versions.items[0]!.version

        const outcomes: Array<[Served, string, string]> = [
          [{ timeout: true }, "FETCH_TIMEOUT", `${url}: no answer within 10 s`],
          [{ text: "nope", status: 500 }, "FETCH_ERROR", `${url}: the server answered with status 500`],
          [{ refused: "the site redirected more than 5 times" }, "FETCH_ERROR", `${url}: the site redirected more than 5 times`],
          [{ text: "openapi: [" }, "PARSE_ERROR", "YAML: "],
          [{ text: "" }, "PARSE_ERROR", "the answer is empty"]
        ]
        for (const [answer, code, message] of outcomes) {
          served.set(url, answer)
          yield* run(service.put(organization.id, "pets", { source: { url } }))
          yield* worker.processPending
          const spec = (yield* run(service.get(organization.id, "pets"))).spec
          expect(spec).toMatchObject({
            processingState: "complete",
            lastProcessErrorCode: code,
            lastVersion: v2.id,
            lastProcessedErrorCount: 1
          })
          expect(spec.lastProcessedErrors[0]?.message.startsWith(message)).toBe(true)
        }
        // A good content again clears the error.
        served.set(url, { text: json("Pets v2") })
        yield* run(service.put(organization.id, "pets", { source: { url } }))
        yield* worker.processPending
        const healed = (yield* run(service.get(organization.id, "pets"))).spec
        expect(healed).toMatchObject({ lastVersion: v2.id, lastProcessedErrors: [], lastProcessedErrorCount: 0 })
        expect(healed.lastProcessErrorCode).toBeUndefined()
        expect(yield* run(specVersions.version(organization.id, "pets", v1.id))).toMatchObject({ version: { id: v1.id, number: 1 } })
        expect(failure(yield* Effect.either(run(specVersions.version(organization.id, "pets", "nope"))))).toBe(
          "NotFound: OpenAPI spec version nope was not found"
        )

        // A text drops the URL and completes at once; the worker finds nothing to do.
        yield* run(service.put(organization.id, "pets", { source: { url } }))
        const texted = yield* run(service.put(organization.id, "pets", { source: { text: json("Pets v3") } }))
        expect(texted.created).toBe(false)
        expect(texted.view.spec).toMatchObject({ processingState: "complete" })
        expect(texted.view.spec.sourceURL).toBeUndefined()
        expect(yield* worker.processPending).toBe(0)
        expect((yield* run(specVersions.latestVersion(organization.id, "pets"))).version.number).toBe(3)
        yield* run(service.remove(organization.id, "pets"))
        expect(failure(yield* Effect.either(run(service.get(organization.id, "pets"))))).toBe("NotFound: OpenAPI spec pets was not found")
      }))

    it.effect("PUT creates under an unknown slug, then updates; two first PUTs at once make one spec", () =>
      Effect.gen(function*() {
        const service = yield* OpenAPISpecs
        const specVersions = yield* OpenAPISpecVersions
        const { organization, run } = yield* adminOfNewOrganization
        const made = yield* run(service.put(organization.id, "new", { source: { text: json("New") } }))
        expect([made.created, made.view.spec.processingState]).toEqual([true, "complete"])
        const again = yield* run(service.put(organization.id, "new", { source: { text: json("New") } }))
        expect([again.created, again.view.spec.lastVersion]).toEqual([false, made.view.spec.lastVersion])
        expect(failure(yield* Effect.either(run(service.put(organization.id, "Bad Slug", { source: { text: json("X") } }))))).toMatch(
          /^InvalidInput: specSlug: must be lower-case/
        )
        const both = yield* Effect.forEach([1, 2], (n) => run(service.put(organization.id, "raced", { source: { text: json(`R${n}`) } })), {
          concurrency: "unbounded"
        })
        expect(both.map((answer) => answer.created).sort()).toEqual([false, true])
        expect((yield* run(specVersions.listVersions(organization.id, "raced", first()))).count).toBe(2)
      }))

    it.effect("access: read with the read role, write with create; non-members are told nothing exists", () =>
      Effect.gen(function*() {
        const service = yield* OpenAPISpecs
        const specVersions = yield* OpenAPISpecVersions
        const { organization, run } = yield* adminOfNewOrganization
        yield* run(service.create(organization.id, { slug: "pets", source: { text: json("Pets") } }))
        const as = (role: "read" | "edit" | "create" | null | "none") =>
          Effect.gen(function*() {
            const user = yield* makeUser()
            if (role !== "none") yield* makeMember(organization, user, role)
            return Effect.provideService(Actor, user)
          })
        const [reader, editor, creator, guest, stranger] = yield* Effect.all([as("read"), as("edit"), as("create"), as(null), as("none")])
        const tried = <A, E extends { _tag: string; message: string }>(effect: Effect.Effect<A, E>) =>
          Effect.map(Effect.either(effect), failure)
        expect((yield* reader(service.get(organization.id, "pets"))).permissions).toEqual({ view: true, edit: false })
        expect((yield* reader(specVersions.listVersions(organization.id, "pets", first()))).count).toBe(1)
        expect(yield* tried(reader(service.put(organization.id, "pets", { source: { text: json("X") } })))).toBe(
          "Forbidden: You may not create or update OpenAPI specs: it requires the create role"
        )
        expect(yield* tried(editor(service.create(organization.id, { slug: "mine", source: { text: json("X") } })))).toBe(
          "Forbidden: You may not create OpenAPI specs: it requires the create role"
        )
        expect(yield* tried(editor(service.remove(organization.id, "pets")))).toBe(
          "Forbidden: You may not delete OpenAPI specs: it requires the create role"
        )
        expect(yield* tried(guest(specVersions.latestContent(organization.id, "pets")))).toBe(
          "Forbidden: You may not read OpenAPI specs: it requires the read role"
        )
        expect(yield* tried(stranger(service.get(organization.id, "pets")))).toBe(`NotFound: organization ${organization.id} was not found`)
        expect(yield* tried(stranger(service.put(organization.id, "pets", { source: { text: json("X") } })))).toBe(
          `NotFound: organization ${organization.id} was not found`
        )
        // Another organization's spec under the same slug is not this one.
        const elsewhere = yield* adminOfNewOrganization
        expect(yield* tried(elsewhere.run(service.get(elsewhere.organization.id, "pets")))).toBe(
          "NotFound: OpenAPI spec pets was not found"
        )
        const made = yield* creator(service.create(organization.id, { slug: "mine", source: { text: json("Mine") } }))
        expect(made.permissions).toEqual({ view: true, edit: true })
        yield* creator(service.remove(organization.id, "mine"))
        expect((yield* reader(service.list(organization.id, first()))).items.map((view) => view.spec.slug)).toEqual(["pets"])
      }))

    it.effect("worker: each job processed exactly once with several workers at once; a job left by a dead worker is taken after its lease", () =>
      Effect.gen(function*() {
        const service = yield* OpenAPISpecs
        const worker = yield* OpenAPISpecWorker
        const specs = yield* OpenAPISpecRepository
        const { organization, run } = yield* adminOfNewOrganization
        const urls = Array.from({ length: 30 }, (_, i) => `https://api.example/${uniqueId("burst")}/${i}.json`)
        for (const [i, url] of urls.entries()) {
          served.set(url, { text: json(`Burst ${i}`) })
          yield* run(service.create(organization.id, { slug: `burst-${i}`, source: { url } }))
        }
        const taken = yield* Effect.all(Array.from({ length: 5 }, () => worker.processPending), { concurrency: "unbounded" })
        expect(taken.reduce((a, b) => a + b, 0)).toBe(30)
        expect(urls.map((url) => fetches.get(url))).toEqual(urls.map(() => 1))
        const listed = yield* run(service.list(organization.id, first()))
        expect(listed.items.every((view) => view.spec.processingState === "complete" && view.spec.lastVersion !== undefined)).toBe(true)

        // A worker took the job and died: until its lease ends the job is its own, then another takes it.
        const url = `https://api.example/${uniqueId("dead")}.json`
        served.set(url, { text: json("Dead") })
        yield* run(service.create(organization.id, { slug: "dead", source: { url } }))
        const now = new Date(yield* TestClock.currentTimeMillis)
        const dead = Option.getOrThrow(yield* specs.claimJob("dead-worker", now, new Date(now.getTime() + 60_000)))
        expect(dead.slug).toBe("dead")
        expect(yield* worker.processNext).toBe(false)
        yield* TestClock.adjust(Duration.seconds(61))
        expect(yield* worker.processNext).toBe(true)
        expect((yield* run(service.get(organization.id, "dead"))).spec).toMatchObject({ processingState: "complete" })
        expect(fetches.get(url)).toBe(1)
        // The dead worker's late outcome finds its claim gone.
        expect(yield* specs.lockClaimed(dead.id, "dead-worker")).toEqual(Option.none())
      }))
  })
