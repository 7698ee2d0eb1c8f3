export { BlobStoreLive } from "./BlobStore.js"
export { ChangeRequestRepositoryLive } from "./ChangeRequestRepository.js"
export { CollectionRepositoryLive } from "./CollectionRepository.js"
export { CustomFieldRepositoryLive } from "./CustomFieldRepository.js"
export { InviteRepositoryLive } from "./InviteRepository.js"
export { MemberRepositoryLive } from "./MemberRepository.js"
export { type Migration, migrate, migrations } from "./Migrations.js"
export { OrganizationRepositoryLive } from "./OrganizationRepository.js"
export { makePgliteClient, PgliteClient, type PgliteOptions } from "./Pglite.js"
export { PgServerClient, PgServerClientInFreshSchema, withSearchPath } from "./PgServer.js"
export { MigrationsLive, PgStorage } from "./PgStorage.js"
export {
  makeRevisionContentRepositoryLive,
  RevisionContentRepositoryLive,
  SNAPSHOT_INTERVAL
} from "./RevisionContentRepository.js"
export { RevisionRepositoryLive } from "./RevisionRepository.js"
export { SiblingRepositoryLive } from "./SiblingRepository.js"
export { SpaceRepositoryLive } from "./SpaceRepository.js"
export { TeamRepositoryLive } from "./TeamRepository.js"
export { TokenRepositoryLive } from "./TokenRepository.js"
export { UnitOfWorkLive } from "./UnitOfWork.js"
export { UserRepositoryLive } from "./UserRepository.js"
export { DiskBlobStore } from "./DiskBlobStore.js"
