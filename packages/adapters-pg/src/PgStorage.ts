import type * as SqlClient from "@effect/sql/SqlClient"
import type { StoragePorts } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { BlobStoreLive } from "./BlobStore.js"
import { ChangeRequestRepositoryLive } from "./ChangeRequestRepository.js"
import { CollectionRepositoryLive } from "./CollectionRepository.js"
import { CustomFieldRepositoryLive } from "./CustomFieldRepository.js"
import { InviteRepositoryLive } from "./InviteRepository.js"
import { AcquaintancesLive, MemberRepositoryLive } from "./MemberRepository.js"
import { migrate } from "./Migrations.js"
import { OrganizationRepositoryLive } from "./OrganizationRepository.js"
import { RevisionContentRepositoryLive } from "./RevisionContentRepository.js"
import { RevisionRepositoryLive } from "./RevisionRepository.js"
import { SearchIndexLive } from "./SearchIndex.js"
import { SiblingRepositoryLive } from "./SiblingRepository.js"
import { SpaceRepositoryLive } from "./SpaceRepository.js"
import { TeamRepositoryLive } from "./TeamRepository.js"
import { TokenRepositoryLive } from "./TokenRepository.js"
import { UnitOfWorkLive } from "./UnitOfWork.js"
import { UserRepositoryLive } from "./UserRepository.js"

/** Brings the schema up to date before anything uses it. */
export const MigrationsLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effectDiscard(Effect.orDie(migrate))

/** Every storage port over a SqlClient (Postgres server or PGlite); building it runs the migrations. */
export const PgStorage: Layer.Layer<StoragePorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  UnitOfWorkLive,
  UserRepositoryLive,
  TokenRepositoryLive,
  OrganizationRepositoryLive,
  MemberRepositoryLive,
  AcquaintancesLive,
  TeamRepositoryLive,
  InviteRepositoryLive,
  CollectionRepositoryLive,
  SpaceRepositoryLive,
  SiblingRepositoryLive,
  RevisionRepositoryLive,
  CustomFieldRepositoryLive,
  RevisionContentRepositoryLive,
  BlobStoreLive,
  ChangeRequestRepositoryLive,
  SearchIndexLive
).pipe(Layer.provide(MigrationsLive))
