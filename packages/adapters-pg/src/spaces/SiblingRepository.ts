import * as SqlClient from "@effect/sql/SqlClient"
import { type Sibling, SiblingRepository } from "@octavo/domain"
import { Effect, Layer } from "effect"

export const SiblingRepositoryLive = Layer.effect(
  SiblingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return SiblingRepository.of({
      // Collections and spaces share one order among the children of a parent; soft-deleted spaces keep their place.
      childrenOf: (organizationId, parentId) => {
        const ofParent = parentId === null ? sql`parent_id IS NULL` : sql`parent_id = ${parentId}`
        // Lock the parent first (the collection, or the organization for the top): a concurrent
        // placement under it waits, then reads the children anew and picks another key.
        const lockParent = parentId === null
          ? sql`SELECT 1 FROM organizations WHERE id = ${organizationId} FOR UPDATE`
          : sql`SELECT 1 FROM collections WHERE id = ${parentId} FOR UPDATE`
        return lockParent.pipe(
          Effect.zipRight(sql<Sibling>`SELECT id, position FROM collections WHERE organization_id = ${organizationId} AND ${ofParent}
            UNION ALL
            SELECT id, position FROM spaces WHERE organization_id = ${organizationId} AND ${ofParent}
            ORDER BY position, id`),
          Effect.orDie
        )
      }
    })
  })
)
