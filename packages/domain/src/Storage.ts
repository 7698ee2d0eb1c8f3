import type { CommentsPorts } from "./comments/Ports.js"
import type { GitSyncPorts } from "./gitsync/Ports.js"
import type { ContentPorts } from "./content/Ports.js"
import type { IdentityPorts } from "./identity/Ports.js"
import type { InsightsPorts } from "./insights/Ports.js"
import type { IntegrationsPorts } from "./integrations/Ports.js"
import type { OpenAPIPorts } from "./openapi/Ports.js"
import type { OrganizationsPorts } from "./organizations/Ports.js"
import type { UnitOfWork } from "./shared/UnitOfWork.js"
import type { SearchPorts } from "./search/Ports.js"
import type { SitesPorts } from "./sites/Ports.js"
import type { CommentViewFacts, SpaceCommentReads } from "./comments/Ports.js"
import type { ChangeRequestViewFacts, SpaceChangeRequestReads } from "./content/Ports.js"
import type { RevisionGitReads, SiteTreeRowReads, SpaceFactReads } from "./ReadTogether.js"
import type { SiteReads } from "./sites/Ports.js"
import type { SpacesPorts } from "./spaces/Ports.js"
import type { SsoPorts } from "./sso/Ports.js"
import type { TranslationsPorts } from "./translations/Ports.js"

/**
 * Everything a storage adapter provides, context by context, and the reads of several contexts at
 * once (`ReadTogether`): one Layer of these runs the whole domain.
 */
export type StoragePorts =
  | UnitOfWork
  | IdentityPorts
  | OrganizationsPorts
  | SpacesPorts
  | ContentPorts
  | SearchPorts
  | CommentsPorts
  | SitesPorts
  | InsightsPorts
  | SsoPorts
  | TranslationsPorts
  | OpenAPIPorts
  | IntegrationsPorts
  | GitSyncPorts
  | SpaceFactReads
  | RevisionGitReads
  | SpaceChangeRequestReads
  | ChangeRequestViewFacts
  | CommentViewFacts
  | SpaceCommentReads
  | SiteReads
  | SiteTreeRowReads
