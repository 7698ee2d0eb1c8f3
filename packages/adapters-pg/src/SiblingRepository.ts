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
        return sql<Sibling>`SELECT id, position FROM collections WHERE organization_id = ${organizationId} AND ${ofParent}
          UNION ALL
          SELECT id, position FROM spaces WHERE organization_id = ${organizationId} AND ${ofParent}
          ORDER BY position, id`.pipe(Effect.orDie)
      }
    })
  })
)
