import { type StoragePorts, UnitOfWork } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { MemoryBlobStore, MemoryChangeRequestRepository, MemoryRevisionContentRepository } from "./ContentRepositories.js"
import { MemoryTokenRepository, MemoryUserRepository } from "./IdentityRepositories.js"
import {
  MemoryAcquaintances,
  MemoryInviteRepository,
  MemoryMemberRepository,
  MemoryOrganizationRepository,
  MemoryTeamRepository
} from "./OrganizationRepositories.js"
import {
  MemoryCollectionRepository,
  MemoryCustomFieldRepository,
  MemoryRevisionRepository,
  MemorySiblingRepository,
  MemorySpaceRepository
} from "./SpaceRepositories.js"
import { MemorySearchIndex } from "./SearchIndex.js"
import { MemoryStore, MemoryStoreLive } from "./Store.js"

export { MemoryStore, MemoryStoreLive } from "./Store.js"

const MemoryUnitOfWork = Layer.effect(UnitOfWork, Effect.map(MemoryStore, (store) => ({ transaction: store.transaction })))

/** Every storage port, in memory. Each build of the layer starts empty. */
export const MemoryStorage: Layer.Layer<StoragePorts> = Layer.mergeAll(
  MemoryUnitOfWork,
  MemoryUserRepository,
  MemoryTokenRepository,
  MemoryOrganizationRepository,
  MemoryMemberRepository,
  MemoryTeamRepository,
  MemoryInviteRepository,
  MemoryAcquaintances,
  MemoryCollectionRepository,
  MemorySpaceRepository,
  MemorySiblingRepository,
  MemoryRevisionRepository,
  MemoryCustomFieldRepository,
  MemoryRevisionContentRepository,
  MemoryBlobStore,
  MemoryChangeRequestRepository,
  MemorySearchIndex
).pipe(Layer.provide(MemoryStoreLive))
