import { Collection, CollectionId, CustomField, HttpUrl, Space } from "@octavo/domain"
import { Schema } from "effect"

// The wire shapes of collections, spaces and custom fields, fields from the domain's where they match.

const Urls = Schema.Struct({ location: Schema.String, app: Schema.String })

export const CollectionObject = Schema.Struct({
  object: Schema.Literal("collection"),
  ...Collection.pick("id", "title", "description").fields,
  organization: Collection.fields.organizationId,
  parent: Schema.optional(CollectionId),
  ...Collection.pick("defaultLevel").fields,
  urls: Urls,
  permissions: Schema.Struct({
    view: Schema.Boolean,
    admin: Schema.Boolean,
    viewInviteLinks: Schema.Boolean,
    create: Schema.Boolean,
    edit: Schema.Boolean
  })
}).annotations({ identifier: "Collection" })

/** GitBook's `GitSyncState`: a space's `gitSync`, and what `GET git/info` answers (conventions-2.md §8). */
export const GitSyncStateObject = Schema.Struct({
  installationId: Schema.String,
  installationStatus: Schema.Literal("active"),
  installationProvider: Schema.optional(Schema.String),
  repoName: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  updatedAt: Schema.String,
  operation: Schema.optional(Schema.Struct({
    state: Schema.Literal("running", "success", "failure", "timeout"),
    direction: Schema.Literal("import", "export"),
    startedAt: Schema.String,
    endedAt: Schema.optional(Schema.String),
    error: Schema.optional(Schema.String),
    revision: Schema.optional(Schema.String),
    commit: Schema.optional(Schema.String),
    /** While it runs: GitBook's `GitSyncOperationStage`, and for an import the page files read of those to read. */
    stage: Schema.optional(Schema.Literal("repo_fetch", "config_check", "content_process", "finalize")),
    progress: Schema.optional(Schema.Struct({ done: Schema.Number, total: Schema.Number }))
  })),
  operationTimeout: Schema.Number
}).annotations({ identifier: "GitSyncState" })
export type GitSyncStateObject = typeof GitSyncStateObject.Type

/** GitBook's merge rules of a space; Octavo has none of its own, so a space follows its organization's. */
const MergeRules = Schema.Struct({ type: Schema.Literal("inherit") })

export const SpaceObject = Schema.Struct({
  object: Schema.Literal("space"),
  ...Space.pick("id", "title", "emoji", "visibility").fields,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  deletedAt: Schema.optional(Schema.Date),
  ...Space.pick("editMode").fields,
  mergeRules: MergeRules,
  urls: Schema.Struct({
    location: Schema.String,
    app: Schema.String,
    /** While a published site shows the space. */
    published: Schema.optional(Schema.String),
    icon: Schema.optional(HttpUrl)
  }),
  organization: Space.fields.organizationId,
  parent: Schema.optional(CollectionId),
  revision: Space.fields.revisionId,
  ...Space.pick("defaultLevel", "language").fields,
  /** Once an operation or a `gitInfo` was recorded. */
  gitSync: Schema.optional(GitSyncStateObject),
  comments: Schema.Number,
  changeRequests: Schema.Number,
  changeRequestsOpen: Schema.Number,
  changeRequestsDraft: Schema.Number,
  permissions: Schema.Struct({
    view: Schema.Boolean,
    access: Schema.Boolean,
    admin: Schema.Boolean,
    viewInviteLinks: Schema.Boolean,
    edit: Schema.Boolean,
    triggerGitSync: Schema.Boolean,
    comment: Schema.Boolean,
    merge: Schema.Boolean,
    review: Schema.Boolean,
    installIntegration: Schema.Boolean
  })
}).annotations({ identifier: "Space" })

export const CustomFieldObject = Schema.Struct({
  object: Schema.Literal("custom-field"),
  ...CustomField.pick("id", "name", "type", "title", "description", "placeholder", "options").fields,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  urls: Schema.Struct({ location: Schema.String })
}).annotations({ identifier: "CustomField" })
