import { randomBytes } from "node:crypto"
import { MemoryStorage } from "@octavo/adapters-memory"
import { describe, expect, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect, Redacted } from "effect"
import { setAt } from "./fuzz/generate.js"
import { labelOf, operationsOf } from "./fuzz/openapi.js"
import { closeConnections, send } from "./fuzz/send.js"
import { fullBody, requestOf, spotName, spotsOf, validQuery, variantsOf } from "./fuzz/systematic.js"
import { ADMIN_TOKEN, call, serverPort, testServer } from "./harness.js"
import { buildMatrixWorld, buildPeople } from "./matrixWorld.js"

interface Operation {
  readonly operationId: string
  readonly parameters?: ReadonlyArray<unknown>
  readonly requestBody?: unknown
  readonly security?: ReadonlyArray<unknown>
  readonly responses: Record<string, unknown>
}

/** The served document's operations, as `METHOD /path` → operation. */
const operations = Effect.gen(function*() {
  const answer = yield* call("GET", "/openapi.json")
  expect(answer.status).toBe(200)
  // Input that does not decode is answered with the API's own 400 body, not the framework's.
  expect(JSON.stringify(answer.body)).not.toContain("HttpApiDecodeError")
  const paths = answer.body.paths as Record<string, Record<string, Operation>>
  return new Map(
    Object.entries(paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const)
    )
  )
})

const valueAt = (value: unknown, path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>((inner, step) => (inner as Record<string | number, unknown> | undefined)?.[step], value)

const errorStatuses = (operation: Operation | undefined) =>
  Object.keys(operation?.responses ?? {}).filter((status) => Number(status) >= 400).sort()

describe("the served OpenAPI document", () => {
  it.effect("lists on each operation exactly the errors it can answer", () =>
    Effect.gen(function*() {
      const all = yield* operations
      // No input, no role: only the token can be wrong.
      expect(errorStatuses(all.get("GET /v1/user"))).toEqual(["401", "413", "429", "500"])
      expect(errorStatuses(all.get("GET /healthz"))).toEqual(["413", "429", "500"])
      expect(errorStatuses(all.get("DELETE /v1/spaces/{spaceId}"))).toEqual(["400", "401", "403", "404", "413", "429", "500"])
      expect(errorStatuses(all.get("GET /v1/spaces/{spaceId}"))).toEqual(["400", "401", "404", "413", "429", "500"])
      expect(errorStatuses(all.get("POST /v1/orgs"))).toEqual(["400", "401", "409", "413", "429", "500"])
      expect(errorStatuses(all.get("POST /v1/orgs/{organizationId}/invites/{inviteId}"))).toEqual([
        "400",
        "401",
        "404",
        "409",
        "412",
        "413",
        "429",
        "500"
      ])
      expect(errorStatuses(all.get("POST /v1/spaces/{spaceId}/restore"))).toEqual([
        "400",
        "401",
        "403",
        "404",
        "409",
        "412",
        "413",
        "429",
        "500"
      ])
    }).pipe(Effect.provide(testServer(MemoryStorage)), Effect.scoped))

  it.effect("declares 400 where input is decoded and 401 where a token is required, on every operation", () =>
    Effect.gen(function*() {
      const all = yield* operations
      expect(all.size).toBeGreaterThan(90)
      for (const [name, operation] of all) {
        const statuses = errorStatuses(operation)
        const decodesInput = (operation.parameters ?? []).length > 0 || operation.requestBody !== undefined
        const authenticated = (operation.security ?? []).length > 0
        expect([name, statuses.includes("400")]).toEqual([name, decodesInput])
        expect([name, statuses.includes("401")]).toEqual([name, authenticated])
        // Every error answer has the API's one error body.
        for (const status of statuses) {
          const schema = JSON.stringify(operation.responses[status])
          expect([name, status, schema.includes(`#/components/schemas/Error${status}`)]).toEqual([name, status, true])
        }
      }
    }).pipe(Effect.provide(testServer(MemoryStorage)), Effect.scoped))

  it.effect("claims that a request body refuses unknown properties only within a site's adaptive schema", () =>
    Effect.gen(function*() {
      const answer = yield* call("GET", "/openapi.json")
      const components = answer.body.components.schemas as Record<string, unknown>
      /** Everything a schema reaches, through its component references. */
      const reached = (root: unknown): Array<unknown> => {
        const found: Array<unknown> = []
        const seen = new Set<unknown>()
        const walk = (schema: unknown): void => {
          if (typeof schema !== "object" || schema === null || seen.has(schema)) return
          seen.add(schema)
          found.push(schema)
          const ref = (schema as { $ref?: unknown }).$ref
          if (typeof ref === "string") walk(components[ref.replace("#/components/schemas/", "")])
          Object.values(schema).forEach(walk)
        }
        walk(root)
        return found
      }
      const closed = (schema: unknown) => (schema as { additionalProperties?: unknown }).additionalProperties === false
      const bodies = [...(yield* operations)].filter(([, operation]) => operation.requestBody !== undefined)
      expect(bodies.length).toBeGreaterThan(60)
      expect(bodies.filter(([, operation]) => reached(operation.requestBody).some(closed)).map(([name]) => name)).toEqual([
        "PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema"
      ])
      // There, within the adaptive schema only: each of its objects refuses other keys, as the domain checks it.
      const adaptive = reached(bodies.find(([name]) => name.endsWith("/adaptive-schema"))?.[1].requestBody)
      const schema = adaptive.find((s) => (s as { $id?: unknown }).$id === "/schemas/site-adaptive-json-schema")
      expect(adaptive.filter(closed).length).toBeGreaterThan(10)
      expect(adaptive.filter(closed).every((s) => reached(schema).includes(s))).toBe(true)
      // Responses still say exactly what they hold.
      expect((components["User"] as { additionalProperties?: unknown }).additionalProperties).toBe(false)

      // And the server does ignore them elsewhere.
      const created = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, body: { title: "Extra", somethingElse: 1 } })
      expect(created.status).toBe(201)
      expect(created.body.title).toBe("Extra")
      expect(created.body.somethingElse).toBeUndefined()
    }).pipe(Effect.provide(testServer(MemoryStorage)), Effect.scoped))

  it.live(
    "answers a body with an unknown property as the document says: refused where it says so, else as without it",
    () =>
      Effect.gen(function*() {
        const port = yield* serverPort
        const operations = operationsOf((yield* call("GET", "/openapi.json")).body).filter((o) => o.body !== undefined)
        expect(operations.length).toBeGreaterThan(60)
        const people = yield* buildPeople
        const pool = { params: (yield* buildMatrixWorld(people)).params, foreign: [] }
        const extra = "octavoUnknownProperty"
        const disagreements: Array<string> = []
        const visited = new Set<string>()
        let unique = 0
        for (const operation of operations) {
          const authorization = `Bearer ${operation.path.startsWith("/v1/users") ? ADMIN_TOKEN : people.admin.token}`
          for (let variant = 0; variant < variantsOf(operation.body!); variant++) {
            const bodyOf = () => {
              const making = { pool, variant, unique }
              const body = fullBody(operation, making)
              unique = making.unique
              return body
            }
            const full = bodyOf()
            for (const spot of spotsOf(full, operation.body!)) {
              const value = valueAt(full, spot.path)
              // The object's own schema (a union's branch that names its properties); records and free JSON have none.
              const schema = [spot.schema, ...(spot.schema.anyOf ?? [])].find((s) =>
                s.type === "object" && Object.keys(s.properties ?? {}).length > 0 &&
                Object.keys(value ?? {}).every((key) => key in (s.properties ?? {}))
              )
              if (spot.kind !== "value" || schema === undefined || value === null || typeof value !== "object") continue
              const what = `${labelOf(operation)} at ${spotName(spot)} (${Object.keys(value).join(",")})`
              if (visited.has(what)) continue
              visited.add(what)
              const body = bodyOf()
              const withExtra = setAt(body, spot.path, { ...(valueAt(body, spot.path) as object), [extra]: "x" })
              const query = validQuery(operation, pool)
              const answered = yield* Effect.promise(() => send(port, requestOf(operation, pool, authorization, query, withExtra, what)))
              const plain = yield* Effect.promise(() => send(port, requestOf(operation, pool, authorization, query, bodyOf(), what)))
              const closed = schema.additionalProperties === false
              const refused = answered.status === 400 && answered.text.includes(extra)
              // Sent second, the body without may meet what the first made (a conflict): only refusals are compared.
              if (closed !== refused || (!closed && answered.status >= 400 && answered.status !== plain.status)) {
                disagreements.push(
                  `${what}: the document says ${closed ? "no other properties" : "nothing"}; with one ${answered.status} ${
                    answered.text.slice(0, 100)
                  }, without ${plain.status}`
                )
              }
            }
          }
        }
        closeConnections()
        console.info(`unknown properties: ${visited.size} objects of ${operations.length} request bodies`)
        expect(visited.size).toBeGreaterThan(150)
        expect(disagreements).toEqual([])
      }).pipe(
        // Integrations' secrets are sealed with the server's key: without one, a body that has them is refused whole.
        Effect.provide(testServer(MemoryStorage, { secretKey: Redacted.make(new Uint8Array(randomBytes(32))) })),
        Effect.scoped
      ),
    120_000
  )

  it.live("describes a site's adaptive schema as the server takes it: closed at every level", () =>
    Effect.gen(function*() {
      const document = (yield* call("GET", "/openapi.json")).body
      const body = document.paths["/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema"].put.requestBody
      const declared = new Ajv2020({ strict: false, validateSchema: false })
        .compile(body.content["application/json"].schema.properties.jsonSchema)
      const people = yield* buildPeople
      const { params } = yield* buildMatrixWorld(people)
      const flag = { type: "boolean", description: "A flag" }
      const plan = { type: "string", description: "Plan", enum: ["free", "pro"] }
      const group = (properties: object) => ({ type: "object", description: "Group", properties, additionalProperties: false })
      const root = (properties: object) => ({ type: "object", properties, additionalProperties: false })
      const schemas: ReadonlyArray<readonly [string, unknown]> = [
        ["empty", root({})],
        ["every kind of claim", {
          ...root({
            flag,
            plan,
            count: { type: "number", description: "Count" },
            tags: { type: "array", description: "Tags", items: plan },
            unsigned: { ...group({ a: group({ b: group({ c: flag }) }) }), description: "Unsigned claims of the site visitor." }
          }),
          // GitBook's answer has no `$id`, which the conformance check holds every answer to: it is left out here.
          $schema: "http://json-schema.org/draft-07/schema#"
        }],
        ["an unknown key at the top", { ...root({}), title: "x" }],
        ["an unknown key in a claim", root({ flag: { ...flag, default: true } })],
        ["an unknown key in an array's items", root({ tags: { type: "array", description: "Tags", items: { ...plan, x: 1 } } })],
        ["an unknown key in a nested claim", root({ unsigned: group({ flag: { ...flag, format: "x" } }) })],
        ["an open object", root({ group: { ...group({}), additionalProperties: true } })],
        ["unsigned described otherwise", root({ unsigned: group({}) })],
        ["claims nested four deep", root({ a: group({ b: group({ c: group({ d: flag }) }) }) })],
        ["an empty object four deep", root({ a: group({ b: group({ c: group({ d: group({}) }) }) }) })],
        ["claims nested five deep", root({ a: group({ b: group({ c: group({ d: group({ e: flag }) }) }) }) })],
        ["a claim of no known type", root({ flag: { type: "integer", description: "n" } })],
        ["a claim without description", root({ flag: { type: "boolean" } })],
        ["no properties", { type: "object", additionalProperties: false }]
      ]
      for (const [what, jsonSchema] of schemas) {
        const answer = yield* call("PUT", `/v1/orgs/${params.organizationId}/sites/${params.siteId}/adaptive-schema`, {
          token: people.admin.token,
          body: { jsonSchema }
        })
        expect([what, answer.status, answer.body]).toEqual([what, declared(jsonSchema) ? 200 : 400, answer.body])
      }
    }).pipe(Effect.provide(testServer(MemoryStorage)), Effect.scoped))
})
