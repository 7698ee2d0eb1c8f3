import { MemoryStorage } from "@octavo/adapters-memory"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ADMIN_TOKEN, call, testServer } from "./harness.js"

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

  it.effect("does not claim that request bodies refuse unknown properties, which the server ignores", () =>
    Effect.gen(function*() {
      const answer = yield* call("GET", "/openapi.json")
      const components = answer.body.components.schemas as Record<string, unknown>
      // Everything a request body's schema reaches, through its component references.
      const reached: Array<unknown> = []
      const seen = new Set<unknown>()
      const walk = (schema: unknown): void => {
        if (typeof schema !== "object" || schema === null || seen.has(schema)) return
        seen.add(schema)
        reached.push(schema)
        const ref = (schema as { $ref?: unknown }).$ref
        if (typeof ref === "string") walk(components[ref.replace("#/components/schemas/", "")])
        Object.values(schema).forEach(walk)
      }
      const bodies = [...(yield* operations).values()].filter((operation) => operation.requestBody !== undefined)
      expect(bodies.length).toBeGreaterThan(25)
      bodies.forEach((operation) => walk(operation.requestBody))
      expect(reached.filter((schema) => (schema as { additionalProperties?: unknown }).additionalProperties === false)).toEqual([])
      // Responses still say exactly what they hold.
      expect((components["User"] as { additionalProperties?: unknown }).additionalProperties).toBe(false)

      // And the server does ignore them.
      const created = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, body: { title: "Extra", somethingElse: 1 } })
      expect(created.status).toBe(201)
      expect(created.body.title).toBe("Extra")
      expect(created.body.somethingElse).toBeUndefined()
    }).pipe(Effect.provide(testServer(MemoryStorage)), Effect.scoped))
})
