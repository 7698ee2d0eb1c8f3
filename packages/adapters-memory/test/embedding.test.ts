import { MemoryStorage } from "@octavo/adapters-memory"
import { Actor, DomainServices, Identity, Organizations, OutsideNotGiven, Teams } from "@octavo/domain"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"

// The README's embedding example, as written there.
it("embeds the domain with the memory adapter, as the README shows", async () => {
  const program = Effect.gen(function*() {
    const identity = yield* Identity
    const admin = yield* identity.bootstrapInstanceAdmin("local-secret")
    const ada = yield* identity.createUser({ displayName: "Ada", email: "ada@example.com" }).pipe(
      Effect.provideService(Actor, admin)
    )
    const asAda = Effect.provideService(Actor, ada)
    const { organization } = yield* asAda((yield* Organizations).create({ title: "Acme Docs" }))
    const team = yield* asAda((yield* Teams).create(organization.id, { title: "Writers", members: [ada.id] }))
    return team.members // 1
  })

  const members = await Effect.runPromise(
    program.pipe(Effect.provide(DomainServices.pipe(Layer.provide(Layer.merge(MemoryStorage, OutsideNotGiven)))))
  )
  expect(members).toBe(1)
})
