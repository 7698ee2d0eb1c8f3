import * as SqlClient from "@effect/sql/SqlClient"
import {
  ChangeRequestId,
  type ChangeRequestKey,
  ChangeRequestViewFacts,
  CommentId,
  CommentReplyId,
  CommentViewFacts,
  GitSyncState,
  RevisionGit,
  RevisionGitReads,
  RevisionId,
  OrganizationId,
  SiteId,
  SiteReads,
  SiteTreeRowReads,
  SpaceChangeRequestReads,
  SpaceCommentReads,
  SpaceFactReads,
  type SpaceFactRows,
  SpaceId,
  UserId
} from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import {
  CommentRow,
  OpenByChangeRequestRow,
  openByChangeRequestOf,
  OpenCountRow,
  openCommentCounts,
  ReactionRow,
  reactionsBySubject,
  reactionsTo,
  ReplierRow,
  repliersByComment,
  repliersTo,
  ReplyRow
} from "./comments/CommentRepository.js"
import { ChangeRequestRow, changeRequestCounts, CountsRow } from "./content/ChangeRequestRepository.js"
import { UserRow } from "./identity/UserRepository.js"
import { gitSyncStatesOf } from "./gitsync/GitSyncRepository.js"
import { findOne, single } from "./shared/Rows.js"
import type { Ids } from "./shared/Sql.js"
import { SiteRow } from "./sites/SiteRepository.js"
import {
  GroupRow,
  SectionRow,
  siteSpacesOn,
  SiteSpaceRow,
  SpaceOfRow,
  structureColumns
} from "./sites/SiteStructureRepository.js"
import { RevisionRow } from "./spaces/RevisionRepository.js"
import { accessColumns, accessFields, accessFrom, asItemForAccess, CollectionRow, collectionsOf } from "./spaces/ForAccess.js"
import { SpaceRow } from "./spaces/SpaceRepository.js"

// The reads of several contexts at once (the domain's ReadTogether), each in one statement over the
// tables of those contexts.

/** Each context's rows as one JSON array column: the queries its repositories send alone. */
const FactsRow = Schema.Struct({
  change_requests: Schema.Array(CountsRow),
  open_comments: Schema.Array(OpenCountRow),
  site_spaces: Schema.Array(SpaceOfRow),
  sites: Schema.Array(SiteRow),
  sections: Schema.Array(SectionRow),
  groups: Schema.Array(GroupRow),
  structure_site_spaces: Schema.Array(SiteSpaceRow),
  structure_spaces: Schema.Array(SpaceRow),
  git_sync: Schema.Array(GitSyncState)
})

/** The rows `rows` names (an alias, with an ORDER BY if wanted) as a JSON array, `[]` for none. */
const jsonArray = (sql: SqlClient.SqlClient, rows: string) => sql.literal(`coalesce(json_agg(${rows}), '[]')`)

/** Rows of `rows` by their site. */
const bySite = <A extends { readonly siteId: SiteId }>(rows: ReadonlyArray<A>, siteId: SiteId) =>
  rows.filter((row) => row.siteId === siteId)

/**
 * The common table expressions `factColumns` reads: the site spaces on the spaces `ids` (`held`)
 * and their sites (`held_sites`).
 */
const factTables = (sql: SqlClient.SqlClient, ids: Ids) =>
  sql`held AS (${siteSpacesOn(sql, ids)}), held_sites AS (SELECT DISTINCT site_id FROM held)`

/** The columns of `FactsRow` for the spaces `ids`, over `factTables`. */
const factColumns = (sql: SqlClient.SqlClient, ids: Ids) => {
  const agg = (rows: string) => jsonArray(sql, rows)
  return sql`(SELECT ${agg("c")} FROM (${changeRequestCounts(sql, ids)}) c) AS change_requests,
    (SELECT ${agg("o")} FROM (${openCommentCounts(sql, ids)}) o) AS open_comments,
    (SELECT ${agg("h ORDER BY h.site_id, h.space_id, h.id")} FROM held h) AS site_spaces,
    (SELECT ${agg("s")} FROM sites s WHERE s.id IN (SELECT site_id FROM held_sites)) AS sites,
    ${structureColumns(sql, sql`x.site_id IN (SELECT site_id FROM held_sites)`, "structure_site_spaces")},
    (SELECT ${agg("sp")} FROM spaces sp
      WHERE sp.id IN (SELECT x.space_id FROM site_spaces x WHERE x.site_id IN (SELECT site_id FROM held_sites))
    ) AS structure_spaces,
    (SELECT ${agg("g.state")} FROM (${gitSyncStatesOf(sql, ids)}) g) AS git_sync`
}

/** A `FactsRow` as the domain's `SpaceFactRows`. */
const asFactRows = (row: typeof FactsRow.Type): SpaceFactRows => ({
  changeRequests: new Map(row.change_requests.map(({ spaceId, ...count }) => [spaceId, count])),
  openComments: new Map(row.open_comments.map((count) => [count.spaceId, count.open])),
  sites: {
    siteSpaces: row.site_spaces,
    sites: row.sites,
    structures: new Map(row.sites.map((site) => [site.id, {
      sections: bySite(row.sections, site.id),
      groups: bySite(row.groups, site.id),
      siteSpaces: bySite(row.structure_site_spaces, site.id)
    }])),
    structureSpaces: row.structure_spaces
  },
  gitSync: row.git_sync
})

/**
 * What a view of spaces reads of change requests, comments, sites and Git Sync, in one statement:
 * a space's view then costs its access read and this (issue 19: two round trips for one object,
 * three for a list with its count), published or not.
 */
const PgSpaceFactReads = Layer.effect(
  SpaceFactReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = single(
      Schema.Array(SpaceId),
      FactsRow,
      (ids) => sql`WITH ${factTables(sql, ids)} SELECT ${factColumns(sql, ids)}`
    )
    return SpaceFactReads.of({ of: (spaceIds) => Effect.map(read(spaceIds), asFactRows) })
  })
)

/**
 * A site's structure, the spaces its site spaces are on with what later contexts keep of them
 * (`factColumns`, as one JSON object), and the organization's collections, in one statement: a
 * read of a site then costs its access read and this.
 */
const PgSiteTreeRowReads = Layer.effect(
  SiteTreeRowReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = single(
      Schema.Tuple(SiteId, OrganizationId),
      Schema.Struct({
        sections: Schema.Array(SectionRow),
        groups: Schema.Array(GroupRow),
        site_spaces: Schema.Array(SiteSpaceRow),
        spaces: Schema.Array(SpaceRow),
        collections: Schema.Array(CollectionRow),
        facts: FactsRow
      }),
      ([siteId, organizationId]) => {
        const onSpaces = sql`SELECT space_id FROM site_spaces WHERE site_id = ${siteId}`
        return sql`WITH ${factTables(sql, onSpaces)}
          SELECT ${structureColumns(sql, sql`x.site_id = ${siteId}`)},
            (SELECT ${jsonArray(sql, "sp")} FROM spaces sp WHERE sp.id IN (${onSpaces})) AS spaces,
            ${collectionsOf(sql, sql`${organizationId}`)} AS collections,
            (SELECT to_json(f) FROM (SELECT ${factColumns(sql, onSpaces)}) f) AS facts`
      }
    )
    return SiteTreeRowReads.of({
      tree: (siteId, organizationId) =>
        Effect.map(read([siteId, organizationId]), ({ collections, facts, groups, sections, site_spaces, spaces }) => ({
          structure: { sections, groups, siteSpaces: site_spaces },
          spaces,
          collections,
          facts: asFactRows(facts)
        }))
    })
  })
)

/** A revision and the Git metadata it was imported with, in one statement. */
const PgRevisionGitReads = Layer.effect(
  RevisionGitReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = findOne(
      RevisionId,
      Schema.Struct({ revision: RevisionRow, git: Schema.NullOr(RevisionGit) }),
      (id) =>
        sql`SELECT to_json(r) AS revision, g.git FROM revisions r
          LEFT JOIN gitsync_revisions g ON g.revision_id = r.id WHERE r.id = ${id}`
    )
    return RevisionGitReads.of({
      find: (revisionId) => Effect.map(find(revisionId), Option.map(({ git, revision }) => ({ revision, git: Option.fromNullable(git) })))
    })
  })
)

/** A change request's key as one parameter: its number or its id. */
const keyOf = (key: ChangeRequestKey): number | ChangeRequestId => "id" in key ? key.id : key.number

/** The tables of `accessColumns` for a space `i`, with its change request `c` of `key` (NULL when there is none). */
const withChangeRequest = (sql: SqlClient.SqlClient, userId: string, key: number | string) =>
  sql`${accessFrom(sql, "spaces", userId)}
    LEFT JOIN change_requests c ON c.space_id = i.id AND ${typeof key === "number" ? sql`c.number = ${key}` : sql`c.id = ${key}`}`

/** A space with its access and one of its change requests, in one statement. */
const PgSpaceChangeRequestReads = Layer.effect(
  SpaceChangeRequestReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = findOne(
      Schema.Tuple(SpaceId, UserId, Schema.Union(ChangeRequestId, Schema.Number)),
      Schema.Struct({ ...accessFields(SpaceRow), change_request: Schema.NullOr(ChangeRequestRow) }),
      ([spaceId, userId, key]) =>
        sql`SELECT ${accessColumns(sql, "spaces")}, to_json(c) AS change_request
        ${withChangeRequest(sql, userId, key)} WHERE i.id = ${spaceId}`
    )
    return SpaceChangeRequestReads.of({
      find: (spaceId, userId, key) =>
        Effect.map(
          find([spaceId, userId, keyOf(key)]),
          Option.map((row) => ({ ...asItemForAccess(row), changeRequest: Option.fromNullable(row.change_request) }))
        )
    })
  })
)

/** A space with its access, a change request, a comment and a reply, in one statement. */
const PgSpaceCommentReads = Layer.effect(
  SpaceCommentReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = findOne(
      Schema.Tuple(SpaceId, UserId, Schema.Union(ChangeRequestId, Schema.Number), CommentId, Schema.NullOr(CommentReplyId)),
      Schema.Struct({
        ...accessFields(SpaceRow),
        change_request: Schema.NullOr(ChangeRequestRow),
        comment: Schema.NullOr(CommentRow),
        reply: Schema.NullOr(ReplyRow)
      }),
      ([spaceId, userId, key, commentId, replyId]) =>
        // Subqueries rather than two more outer joins: PGlite's PostgreSQL matched a reply through the comment's id in
        // the join condition even where the comment's row was null-extended.
        sql`SELECT ${accessColumns(sql, "spaces")}, to_json(c) AS change_request,
          (SELECT to_json(cm) FROM comments cm WHERE cm.id = ${commentId} AND cm.change_request_id = c.id) AS comment,
          (SELECT to_json(r) FROM comment_replies r JOIN comments cm ON cm.id = r.comment_id
            WHERE r.id = ${replyId} AND r.comment_id = ${commentId} AND cm.change_request_id = c.id) AS reply
        ${withChangeRequest(sql, userId, key)} WHERE i.id = ${spaceId}`
    )
    return SpaceCommentReads.of({
      find: (spaceId, userId, key, commentId, replyId) =>
        Effect.map(
          find([spaceId, userId, keyOf(key), commentId, Option.getOrNull(replyId)]),
          Option.map((row) => ({
            ...asItemForAccess(row),
            changeRequest: Option.fromNullable(row.change_request),
            comment: Option.fromNullable(row.comment),
            reply: Option.fromNullable(row.reply)
          }))
        )
    })
  })
)

/** What a view of change requests reads of users and comments, in one statement. */
const PgChangeRequestViewFacts = Layer.effect(
  ChangeRequestViewFacts,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = single(
      Schema.Tuple(Schema.Array(UserId), Schema.Array(ChangeRequestId)),
      Schema.Struct({ users: Schema.Array(UserRow), open_comments: Schema.Array(OpenByChangeRequestRow) }),
      ([userIds, changeRequestIds]) =>
        sql`SELECT
          (SELECT ${jsonArray(sql, "u")} FROM users u WHERE u.id = ANY(${userIds}::text[])) AS users,
          (SELECT ${jsonArray(sql, "o")} FROM (${openByChangeRequestOf(sql, changeRequestIds)}) o) AS open_comments`
    )
    return ChangeRequestViewFacts.of({
      of: (changeRequests) =>
        changeRequests.length === 0
          ? Effect.succeed({ authors: new Map(), openComments: new Map() })
          : Effect.map(
            read([[...new Set(changeRequests.map((cr) => cr.createdBy))], changeRequests.map((cr) => cr.id)]),
            (row) => ({
              authors: new Map(row.users.map((user) => [user.id, user])),
              openComments: new Map(row.open_comments.map((count) => [count.changeRequestId, count.open]))
            })
          )
    })
  })
)

/** What views of comments read of reactions, replies and users, in one statement. */
const PgCommentViewFacts = Layer.effect(
  CommentViewFacts,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = single(
      Schema.Tuple(Schema.Array(Schema.Union(CommentId, CommentReplyId)), Schema.Array(CommentId), Schema.Array(UserId)),
      Schema.Struct({ reactions: Schema.Array(ReactionRow), repliers: Schema.Array(ReplierRow), users: Schema.Array(UserRow) }),
      ([subjects, commentIds, userIds]) =>
        sql`WITH r AS (${reactionsTo(sql, subjects)}), p AS (${repliersTo(sql, commentIds)})
        SELECT
          (SELECT ${jsonArray(sql, "r")} FROM r) AS reactions,
          (SELECT ${jsonArray(sql, "p")} FROM p) AS repliers,
          (SELECT ${jsonArray(sql, "u")} FROM users u
            WHERE u.id = ANY(${userIds}::text[]) OR u.id IN (SELECT user_id FROM r) OR u.id IN (SELECT user_id FROM p)) AS users`
    )
    return CommentViewFacts.of({
      of: (asked) =>
        asked.subjects.length === 0 && asked.users.length === 0
          ? Effect.succeed({ reactions: new Map(), repliers: new Map(), users: new Map() })
          : Effect.map(read([asked.subjects, asked.repliersOf, [...new Set(asked.users)]]), (row) => ({
            reactions: reactionsBySubject(row.reactions),
            repliers: repliersByComment(row.repliers),
            users: new Map(row.users.map((user) => [user.id, user]))
          }))
    })
  })
)

/** What a list of sites takes of spaces, with the sites' own rows, in one statement. */
const PgSiteReads = Layer.effect(
  SiteReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const agg = (rows: string) => jsonArray(sql, rows)
    const spacesOf = single(
      Schema.Array(SiteId),
      Schema.Struct({ held: Schema.Array(SpaceOfRow), spaces: Schema.Array(SpaceRow) }),
      (ids) =>
        sql`WITH held AS (SELECT site_id, space_id, id FROM site_spaces WHERE site_id = ANY(${ids}::text[]))
        SELECT (SELECT ${agg("h ORDER BY h.site_id, h.space_id, h.id")} FROM held h) AS held,
          (SELECT ${agg("sp")} FROM spaces sp WHERE sp.id IN (SELECT space_id FROM held)) AS spaces`
    )
    return SiteReads.of({
      spacesOf: (siteIds) => siteIds.length === 0 ? Effect.succeed({ held: [], spaces: [] }) : spacesOf(siteIds)
    })
  })
)

/** The reads of several contexts at once, each in one statement. */
export const PgReadTogether = Layer.mergeAll(
  PgSpaceFactReads,
  PgSiteTreeRowReads,
  PgRevisionGitReads,
  PgSpaceChangeRequestReads,
  PgSpaceCommentReads,
  PgChangeRequestViewFacts,
  PgCommentViewFacts,
  PgSiteReads
)
