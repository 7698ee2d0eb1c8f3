import { Identity } from "@octavo/domain"
import { Effect, Layer } from "effect"

/** With OCTAVO_ADMIN_TOKEN set, the instance administrator is made (or found) at start and authenticates with it. */
export const bootstrapAdmin = (adminToken: string | undefined) =>
  Layer.effectDiscard(
    adminToken === undefined || adminToken === ""
      ? Effect.void
      : Effect.flatMap(Identity, (identity) => identity.bootstrapInstanceAdmin(adminToken)).pipe(
        Effect.tap((admin) => Effect.logInfo("Instance administrator ready").pipe(Effect.annotateLogs({ userId: admin.id })))
      )
  )
