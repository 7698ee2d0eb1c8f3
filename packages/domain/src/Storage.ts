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
import type { RevisionGitReads } from "./gitsync/ForContent.js"
import type { SiteReads } from "./sites/Ports.js"
import type { SiteTreeRowReads } from "./sites/Reads.js"
import type { SpaceFactRows } from "./spaces/Facts.js"
import type { SpacesPorts } from "./spaces/Ports.js"
import type { SsoPorts } from "./sso/Ports.js"
import type { TranslationsPorts } from "./translations/Ports.js"

/**
 * Everything a storage adapter provides, context by context, and the reads that take several contexts' rows at
 * once (`ReadsOneByOne` answers them over the repositories): one Layer of these runs the whole domain.
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
  | SpaceFactRows
  | RevisionGitReads
  | SpaceChangeRequestReads
  | ChangeRequestViewFacts
  | CommentViewFacts
  | SpaceCommentReads
  | SiteReads
  | SiteTreeRowReads
