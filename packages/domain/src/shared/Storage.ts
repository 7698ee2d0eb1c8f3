import type { TokenRepository, UserRepository } from "../identity/Ports.js"
import type { InviteRepository, MemberRepository, OrganizationRepository, TeamRepository } from "../organizations/Ports.js"
import type {
  CollectionRepository,
  CustomFieldRepository,
  RevisionRepository,
  SiblingRepository,
  SpaceRepository
} from "../spaces/Ports.js"
import type { BlobStore, ChangeRequestRepository, RevisionContentRepository } from "../content/Ports.js"
import type { SearchIndex } from "../search/Ports.js"
import type { UnitOfWork } from "./UnitOfWork.js"

/** Everything a storage adapter provides: one Layer of these runs the whole domain. */
export type StoragePorts =
  | UnitOfWork
  | UserRepository
  | TokenRepository
  | OrganizationRepository
  | MemberRepository
  | TeamRepository
  | InviteRepository
  | CollectionRepository
  | SpaceRepository
  | SiblingRepository
  | RevisionRepository
  | CustomFieldRepository
  | RevisionContentRepository
  | BlobStore
  | ChangeRequestRepository
  | SearchIndex
