import { Context, type Effect, type Option, Schema, type Scope } from "effect"
import type { RevisionId, SiteId, SpaceId } from "../shared/Ids.js"
import type { GitSyncState, Remote, RevisionGit, SiteGitSyncState } from "./GitSync.js"

/** What the spaces' syncs remember; one state per space. */
export class GitSyncRepository extends Context.Tag("@octavo/domain/GitSyncRepository")<GitSyncRepository, {
  readonly find: (spaceId: SpaceId) => Effect.Effect<Option.Option<GitSyncState>>
  /** The states of those of the spaces that have one, in no particular order. */
  readonly findMany: (spaceIds: ReadonlyArray<SpaceId>) => Effect.Effect<ReadonlyArray<GitSyncState>>
  /** Writes the whole state (inserts or replaces). */
  readonly save: (state: GitSyncState) => Effect.Effect<void>
  /**
   * In a unit of work: waits for, then holds, the lock on the space's state, so that the
   * timestamp check and the queueing of one request take turns with others.
   */
  readonly lock: (spaceId: SpaceId) => Effect.Effect<void>
  /** Every space whose operation is `running`. */
  readonly running: () => Effect.Effect<ReadonlyArray<GitSyncState>>
  readonly saveRevision: (git: RevisionGit) => Effect.Effect<void>
  readonly findRevision: (revisionId: RevisionId) => Effect.Effect<Option.Option<RevisionGit>>
}>() {}

/**
 * This server's stable name among the servers sharing the storage (its host and port): operations
 * are queued in its memory, so only it may declare them lost when it starts again.
 */
export class ServerInstance extends Context.Tag("@octavo/domain/ServerInstance")<ServerInstance, string>() {}

/** What the sites' syncs remember; one state per site. */
export class SiteGitSyncRepository extends Context.Tag("@octavo/domain/SiteGitSyncRepository")<SiteGitSyncRepository, {
  readonly find: (siteId: SiteId) => Effect.Effect<Option.Option<SiteGitSyncState>>
  /** Writes the whole state (inserts or replaces). */
  readonly save: (state: SiteGitSyncState) => Effect.Effect<void>
  /** In a unit of work: waits for, then holds, the lock on the site's state. */
  readonly lock: (siteId: SiteId) => Effect.Effect<void>
  /** Every site whose operation is `running`. */
  readonly running: () => Effect.Effect<ReadonlyArray<SiteGitSyncState>>
}>() {}

/** The storage the gitsync context owns. */
export type GitSyncPorts = GitSyncRepository | SiteGitSyncRepository

// Git, behind a port ---------------------------------------------------------------------------

/** Git failed: the remote refused, the network broke, a limit was passed. `reason` is already redacted. */
export class GitFailed extends Schema.TaggedError<GitFailed>()("GitFailed", {
  reason: Schema.String,
  /** The limit that was passed, when that was the cause. */
  tooLarge: Schema.optional(Schema.Boolean),
  timedOut: Schema.optional(Schema.Boolean)
}) {}

/** The push was refused because the branch moved on (not a fast-forward). */
export class GitRejected extends Schema.TaggedError<GitRejected>()("GitRejected", {
  reason: Schema.String
}) {}

/** The remote refused before anything ran: a scheme, host or path this server may not reach. */
export class RemoteRefused extends Schema.TaggedError<RemoteRefused>()("RemoteRefused", {
  reason: Schema.String
}) {}

/** A file of a commit's tree. */
export interface TreeEntry {
  readonly path: string
  /** The blob id. */
  readonly oid: string
  readonly size: number
}

/** The head of a branch, as fetched. */
export interface Snapshot {
  readonly commit: string
  readonly message: string
  readonly entries: ReadonlyArray<TreeEntry>
}

export interface Person {
  readonly name: string
  readonly email: string
}

export interface CommitInput {
  /** The commit to build on; null for a root commit. */
  readonly parent: string | null
  /** Paths of the parent's tree to take out. */
  readonly remove: ReadonlyArray<string>
  /** Files to write, replacing any at the same path. */
  readonly put: ReadonlyMap<string, Uint8Array>
  readonly message: string
  readonly author: Person
  readonly committer: Person
}

/** One operation's working copy of a remote branch; it goes with its scope. */
export interface GitSession {
  /** Fetches the branch head (at most `maxBytes` downloaded); None when the branch does not exist. */
  readonly fetch: (options: { readonly maxBytes: number }) => Effect.Effect<Option.Option<Snapshot>, GitFailed>
  /** The bytes of blobs of the last fetch, by path. */
  readonly read: (entries: ReadonlyArray<TreeEntry>) => Effect.Effect<ReadonlyMap<string, Uint8Array>, GitFailed>
  /** Writes a commit; None when its tree is the parent's (nothing to commit). */
  readonly commit: (input: CommitInput) => Effect.Effect<Option.Option<string>, GitFailed>
  /** Pushes `commit` to the branch; without `force`, a branch that moved on is GitRejected. */
  readonly push: (commit: string, options: { readonly force: boolean }) => Effect.Effect<void, GitFailed | GitRejected>
}

export class GitRepositories extends Context.Tag("@octavo/domain/GitRepositories")<GitRepositories, {
  /** Whether this server may reach the remote at all (scheme, host addresses, file root), before a request is accepted. */
  readonly check: (remote: Remote) => Effect.Effect<void, RemoteRefused>
  /** A working copy for one operation, checked again; removed when the scope closes. */
  readonly open: (remote: Remote) => Effect.Effect<GitSession, RemoteRefused | GitFailed, Scope.Scope>
}>() {}
