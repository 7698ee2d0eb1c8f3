import type * as SqlClient from "@effect/sql/SqlClient"
import type { SpacesPorts } from "@octavo/domain"
import { Layer } from "effect"
import { CollectionRepositoryLive } from "./CollectionRepository.js"
import { CustomFieldRepositoryLive } from "./CustomFieldRepository.js"
import { RevisionRepositoryLive } from "./RevisionRepository.js"
import { SiblingRepositoryLive } from "./SiblingRepository.js"
import { SpaceRepositoryLive } from "./SpaceRepository.js"
import { spacesMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The spaces context's storage: collections, spaces and their order, revisions, custom fields. */
export const PgSpaces: Layer.Layer<SpacesPorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  CollectionRepositoryLive,
  SpaceRepositoryLive,
  SiblingRepositoryLive,
  RevisionRepositoryLive,
  CustomFieldRepositoryLive
)

export { CollectionRepositoryLive } from "./CollectionRepository.js"
export { CustomFieldRepositoryLive } from "./CustomFieldRepository.js"
export { spacesMigrations } from "./migrations.js"
export { RevisionRepositoryLive } from "./RevisionRepository.js"
export { SiblingRepositoryLive } from "./SiblingRepository.js"
export { SpaceRepositoryLive } from "./SpaceRepository.js"
export { gathered, jsonArray, pgSpaceFact, pgSpaceFactRows, PgSpaceFacts } from "./Facts.js"

/** The spaces context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgSpacesContext = pgContext({
  storage: PgSpaces,
  migrations: spacesMigrations
})
