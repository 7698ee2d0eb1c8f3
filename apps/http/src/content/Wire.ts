import { ChangeRequest, ContentPage, File, Revision } from "@octavo/domain"
import { Schema } from "effect"
import { ListOf } from "../shared/Common.js"

// Wire shapes of space content (revisions, nested pages, files, links) and change requests,
// fields from the domain's where they match.

export const FileObject = Schema.Struct({
  object: Schema.Literal("file"),
  ...File.pick("id", "name", "contentType").fields,
  downloadURL: Schema.String,
  ...File.pick("size", "dimensions", "git").fields
}).annotations({ identifier: "File" })

/** GitBook's `RevisionPageLayoutOptions`: every part named, the page's own choices over GitBook's defaults. */
export const LayoutObject = Schema.Struct({
  width: Schema.Literal("default", "wide"),
  cover: Schema.Boolean,
  coverSize: Schema.Literal("hero", "full", "background"),
  coverMask: Schema.Literal("none", "radial"),
  title: Schema.Boolean,
  description: Schema.Boolean,
  tableOfContents: Schema.Boolean,
  outline: Schema.Boolean,
  pagination: Schema.Boolean,
  metadata: Schema.Boolean,
  tags: Schema.Boolean,
  actions: Schema.Boolean,
  anchors: Schema.Boolean
})

const ContentRefObject = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("url"), url: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("page"), page: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("anchor"), anchor: Schema.String, page: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("file"), file: Schema.String })
)

const pageFields = {
  object: Schema.Literal("page"),
  id: ContentPage.fields.id,
  type: ContentPage.fields.kind,
  /** GitBook's deprecated twin of `type`: `sheet` for documents. */
  kind: Schema.Literal("sheet", "group", "link"),
  ...ContentPage.pick("title", "emoji", "icon").fields,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  ...ContentPage.pick("slug").fields,
  path: Schema.String,
  ...ContentPage.pick("description", "href", "condition").fields,
  /** Where a link page leads. */
  target: Schema.optional(ContentRefObject),
  /** A document page's body, as markdown or as a document tree (`format`). */
  markdown: Schema.optional(Schema.String),
  document: Schema.optional(Schema.Unknown),
  ...ContentPage.pick("hidden", "noIndex", "noRobotsIndex", "git").fields,
  layout: Schema.optional(LayoutObject),
  cover: Schema.optional(Schema.Struct({ ref: Schema.Struct({ kind: Schema.Literal("file"), file: Schema.String }), yPos: Schema.Number })),
  tags: Schema.optional(Schema.Array(Schema.Unknown)),
  urls: Schema.Struct({ app: Schema.String })
}

/**
 * A page's own fields: all but its path, its URL and its subpages, which depend on where the page
 * sits. The answers write each page's encoding of these once (see `contentPresenters`).
 */
export const PageOwnObject = Schema.Struct(pageFields).omit("path", "urls")

export interface PageObject extends Schema.Struct.Type<typeof pageFields> {
  readonly pages: ReadonlyArray<PageObject>
}
export interface PageObjectEncoded extends Schema.Struct.Encoded<typeof pageFields> {
  readonly pages: ReadonlyArray<PageObjectEncoded>
}

export const PageObject: Schema.Schema<PageObject, PageObjectEncoded> = Schema.Struct({
  ...pageFields,
  pages: Schema.Array(Schema.suspend((): Schema.Schema<PageObject, PageObjectEncoded> => PageObject))
}).annotations({ identifier: "Page" })

export const RevisionObject = Schema.Struct({
  object: Schema.Literal("revision"),
  ...Revision.pick("id", "parents", "type").fields,
  createdAt: Schema.Date,
  pages: Schema.Array(PageObject),
  files: Schema.Array(FileObject),
  reusableContents: Schema.Array(Schema.Unknown),
  tags: Schema.Array(Schema.Unknown),
  /** For a merge: the change request it merged. */
  mergedFrom: Schema.optional(Schema.suspend(() => ChangeRequestObject)),
  /** For a revision an import made: its commit (api.md Revision `git`; GitBook's `GitSyncCommit` names the flag `createdByGitBook`). */
  git: Schema.optional(Schema.Struct({
    oid: Schema.String,
    message: Schema.String,
    createdByService: Schema.Boolean,
    createdByGitBook: Schema.Boolean,
    url: Schema.optional(Schema.String),
    ref: Schema.String
  })),
  urls: Schema.Struct({ app: Schema.String })
}).annotations({ identifier: "Revision" })

/** A revision without its page tree, which the answers write page by page. */
export const RevisionShell = RevisionObject.omit("pages")

export const LinkStatus = Schema.Literal("ok", "broken", "in-app")

const LinkObject = Schema.Struct({
  status: LinkStatus,
  relation: Schema.Literal("reference"),
  targetReference: Schema.Union(
    Schema.Struct({ kind: Schema.Literal("url"), url: Schema.String }),
    Schema.Struct({ kind: Schema.Literal("page"), page: Schema.String }),
    Schema.Struct({ kind: Schema.Literal("file"), file: Schema.String })
  ),
  locationReferences: Schema.Array(Schema.Struct({ kind: Schema.Literal("page"), page: Schema.String }))
}).annotations({ identifier: "Link" })

export const LinkList = Schema.Struct({
  ...ListOf(LinkObject).fields,
  stats: Schema.Struct({ total: Schema.Number, broken: Schema.Struct({ total: Schema.Number, changeRequest: Schema.Number }) })
})

export const BacklinkObject = Schema.Struct({
  kind: Schema.Literal("page"),
  organization: Schema.String,
  space: Schema.String,
  versionContext: Schema.Struct({ type: Schema.Literal("revision"), revision: Schema.String }),
  page: Schema.Struct({ id: Schema.String, title: Schema.String, path: Schema.String }),
  file: Schema.String
}).annotations({ identifier: "Backlink" })

export const ChangeRequestObject = Schema.Struct({
  object: Schema.Literal("change-request"),
  ...ChangeRequest.pick("id", "number", "status", "subject").fields,
  space: ChangeRequest.fields.spaceId,
  revision: ChangeRequest.fields.revisionId,
  revisionInitial: ChangeRequest.fields.initialRevisionId,
  outdated: Schema.Boolean,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  mergedAt: Schema.optional(Schema.Date),
  createdBy: Schema.Struct({
    object: Schema.Literal("user"),
    id: ChangeRequest.fields.createdBy,
    displayName: Schema.String,
    photoURL: Schema.optional(Schema.String),
    urls: Schema.Struct({ location: Schema.String })
  }),
  comments: Schema.Number,
  urls: Schema.Struct({ location: Schema.String, app: Schema.String })
}).annotations({ identifier: "ChangeRequest" })

/** What a batch did to one page (GitBook's `ChangeRequestContentUpdateChange`). */
const PageRef = Schema.Struct({ object: Schema.Literal("page"), id: Schema.String, urls: Schema.Struct({ location: Schema.String }) })
export const ContentUpdateChange = Schema.Union(
  Schema.Struct({
    object: Schema.Literal("created_page"),
    type: Schema.Literal("created_page"),
    ref: Schema.optional(Schema.String),
    page: PageRef
  }),
  Schema.Struct({ object: Schema.Literal("updated_page"), type: Schema.Literal("updated_page"), page: PageRef }),
  Schema.Struct({ object: Schema.Literal("deleted_page"), type: Schema.Literal("deleted_page"), page: Schema.String })
).annotations({ identifier: "ChangeRequestContentUpdateChange" })

/** A change request's content edit with `compat=false`: the change request, each page touched, the files added. */
export const ChangeRequestContentUpdate = Schema.Struct({
  changeRequest: ChangeRequestObject,
  changes: Schema.Array(ContentUpdateChange),
  insertedFiles: Schema.Array(FileObject)
}).annotations({ identifier: "ChangeRequestContentUpdate" })

/** A live edit with `compat=false`: the space's new revision, each page touched, the files added. */
export const SpaceContentUpdate = Schema.Struct({
  revision: Schema.suspend(() => RevisionObject),
  changes: Schema.Array(ContentUpdateChange),
  insertedFiles: Schema.Array(FileObject)
}).annotations({ identifier: "SpaceContentUpdate" })

export const MergeResult = Schema.Struct({ revision: Schema.String, result: Schema.Literal("merge", "update", "conflicts") })
