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

export { MemoryComments } from "./comments/index.js"
export { MemoryContent } from "./content/index.js"
export { MemoryGitSync } from "./gitsync/index.js"
export { MemoryIdentity } from "./identity/index.js"
export { MemoryInsights } from "./insights/index.js"
export { MemoryOpenAPI } from "./openapi/index.js"
export { MemoryIntegrations } from "./integrations/index.js"
export { MemoryOrganizations } from "./organizations/index.js"
export { MemorySearch } from "./search/index.js"
export { MemorySites } from "./sites/index.js"
export { MemoryShared, MemoryStore, MemoryStoreLive } from "./shared/index.js"
export { MemorySpaces } from "./spaces/index.js"
export { MemorySso } from "./sso/index.js"
export { MemoryTranslations } from "./translations/index.js"

/**
 * Every storage port, in memory: one line per context, and the reads of several contexts at once
 * (`ReadsOneByOne`), made of each in turn. Each build of the layer starts empty.
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
