import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { ChangeRequests, CustomFields, type StoragePorts, Teams } from "../../src/index.js"
import { adminWithNewSpace, type Services } from "./fixtures.js"

const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

/** Inputs an attacker sends: user-named keys that are Object.prototype's, text no storage keeps, references that are no ids. */
export const badInputContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("bad input", (it) => {
    it.effect("custom fields named __proto__ and constructor keep their values", () =>
      Effect.gen(function*() {
        const fields = yield* CustomFields
        const { organization, run, space } = yield* adminWithNewSpace("Prototype")
        for (const name of ["__proto__", "constructor", "tostring"]) {
          yield* run(fields.create(organization.id, { name, type: "text" }))
        }
        expect((yield* run(fields.get(organization.id, "__proto__"))).name).toBe("__proto__")
        yield* run(fields.setValues(
          space.id,
          new Map([["__proto__", { value: "proto value" }], ["constructor", { value: "constructor value" }]])
        ))
        const read = yield* run(fields.valuesOf(space.id))
        expect(read.map((v) => [v.customField.name, v.value]).sort()).toEqual([
          ["__proto__", "proto value"],
          ["constructor", "constructor value"],
          ["tostring", undefined]
        ])
        yield* run(fields.setValues(space.id, new Map([["__proto__", { value: null }]])))
        expect((yield* run(fields.valuesOf(space.id))).filter((v) => v.value !== undefined).map((v) => v.customField.name)).toEqual([
          "constructor"
        ])
        // A name that is no field, even one every object inherits, is refused.
        const unknown = yield* Effect.either(run(fields.setValues(space.id, new Map([["hasOwnProperty", { value: "x" }]]))))
        expect(failureTag(unknown)).toBe("InvalidInput")
      }))

    it.effect("text with NUL or a lone surrogate is refused before it reaches storage", () =>
      Effect.gen(function*() {
        const fields = yield* CustomFields
        const teams = yield* Teams
        const { organization, run, space } = yield* adminWithNewSpace("Text")
        yield* run(fields.create(organization.id, { name: "notes", type: "text" }))
        for (const bad of ["a\u0000b", "lone \uD800 high", "lone \uDC00 low", "\uDBFF"]) {
          const value = yield* Effect.either(run(fields.setValues(space.id, new Map([["notes", { value: bad }]]))))
          expect([bad, failureTag(value)]).toEqual([bad, "InvalidInput"])
          const title = yield* Effect.either(run(teams.create(organization.id, { title: bad })))
          expect([bad, failureTag(title)]).toEqual([bad, "InvalidInput"])
          const member = yield* Effect.either(run(teams.create(organization.id, { title: "Writers", members: [bad] })))
          expect([bad, failureTag(member)]).toEqual([bad, "InvalidInput"])
        }
        // A well-formed pair is text like any other.
        yield* run(fields.setValues(space.id, new Map([["notes", { value: "emoji \uD83D\uDE00" }]])))
        expect((yield* run(fields.valuesOf(space.id))).map((v) => v.value)).toEqual(["emoji \uD83D\uDE00"])
      }))

    it.effect("a change request reference that is neither an id nor a number in range is not found", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const { run, space } = yield* adminWithNewSpace("References")
        const created = yield* run(changeRequests.create(space.id, { subject: "First" }))
        expect((yield* run(changeRequests.get(space.id, "1"))).changeRequest.id).toBe(created.changeRequest.id)
        expect((yield* run(changeRequests.get(space.id, created.changeRequest.id))).changeRequest.number).toBe(1)
        for (const reference of ["1.5", "..", "a b", "2147483648", "99999999999", "\u0000", "", "-1", "1e3", "0x10"]) {
          const found = yield* Effect.either(run(changeRequests.get(space.id, reference)))
          expect([reference, failureTag(found)]).toEqual([reference, "NotFound"])
        }
      }))
  })
