import { Identity } from "@octavo/domain"
import { Effect, Layer, Redacted } from "effect"
import { Authentication, tokenRequired } from "../shared/Security.js"

/** A bearer token is a user of the identity context, or the answer is 401. */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Identity, (identity) =>
    Authentication.of({
      bearer: (token) =>
        identity.authenticate(Redacted.value(token)).pipe(
          Effect.mapError(() => tokenRequired)
        )
    }))
)
