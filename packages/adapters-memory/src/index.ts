import { ReadsOneByOne, type StoragePorts } from "@octavo/domain"
import { Layer } from "effect"
import { MemoryComments } from "./comments/index.js"
import { MemoryContent } from "./content/index.js"
import { MemoryGitSync } from "./gitsync/index.js"
import { MemoryIdentity } from "./identity/index.js"
import { MemoryInsights } from "./insights/index.js"
import { MemoryOpenAPI } from "./openapi/index.js"
import { MemoryIntegrations } from "./integrations/index.js"
import { MemoryOrganizations } from "./organizations/index.js"
import { MemorySearch } from "./search/index.js"
import { MemorySites } from "./sites/index.js"
import { MemoryShared, MemoryStoreLive } from "./shared/index.js"
import { MemorySpaces } from "./spaces/index.js"
import { MemorySso } from "./sso/index.js"
import { MemoryTranslations } from "./translations/index.js"

export { MemoryShared, MemoryStore, MemoryStoreLive } from "./shared/index.js"

/**
 * Every storage port, in memory: each context's (one line each, in the contexts' order), and the reads of several
 * contexts at once (`ReadsOneByOne`), made of each in turn. Each build of the layer starts empty.
 */
export const MemoryStorage: Layer.Layer<StoragePorts> = ReadsOneByOne.pipe(Layer.provideMerge(Layer.mergeAll(
  MemoryShared,
  MemoryIdentity,
  MemoryOrganizations,
  MemorySpaces,
  MemoryContent,
  MemorySearch,
  MemoryComments,
  MemorySites,
  MemoryInsights,
  MemorySso,
  MemoryTranslations,
  MemoryOpenAPI,
  MemoryIntegrations,
  MemoryGitSync
))).pipe(Layer.provide(MemoryStoreLive))
