import { Schema } from "effect"
import { RevisionId, SiteId, SpaceId } from "../shared/Ids.js"
import { boundedString, StoredString } from "../shared/Limits.js"
import { GitRedirect } from "./Redirects.js"

// Git Sync (conventions-2.md §8): requests, the state of a space's sync, and Git's own names.

/** How long an operation may run before it is `timeout` (GitBook's `operationTimeout`). */
export const OPERATION_TIMEOUT_MS = 600_000

/** Operations waiting per space beyond the running one, at most. */
export const MAX_QUEUED = 10

/** What a fetch and an import may hold (README, "Git Sync"): a larger repository is refused. */
export const GIT_LIMITS = {
  /** Bytes Git may download for one fetch (the pack). */
  fetchBytes: 256 * 1024 * 1024,
  /** Files read from the project directory. */
  files: 20_000,
  /** One file (GitBook's limit for assets). */
  fileBytes: 100 * 1024 * 1024,
  /** All files read, together. */
  totalBytes: 256 * 1024 * 1024
} as const

/** Whether a text holds a control character (or, with `space`, a blank). */
const hasControl = (text: string, space: boolean): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x7f || (space && code === 0x20)) return true
  }
  return false
}

const hasCredentials = (url: string): boolean => {
  try {
    const parsed = new URL(url)
    return parsed.username !== "" || parsed.password !== ""
  } catch {
    return false
  }
}

/** Whether percent-encoded text decodes (`remoteOf` decodes credentials; `%ZZ` or cut UTF-8 would throw there). */
const decodes = (text: string): boolean => {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

/** The repository URL: http(s) with optional basic-auth credentials, or `file://` where the server allows it (checked later). */
export const RepositoryUrl = boundedString({ min: 1, max: 2048 }).pipe(
  Schema.filter((url) => {
    if (/^[a-z][a-z0-9+.-]*::/i.test(url)) return "must not name a Git remote helper (transport::address)"
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return "must be an http or https URL (scp-style addresses are not accepted)"
    }
    if (parsed.protocol === "file:") return true
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      return `must be an http or https URL, got the scheme ${parsed.protocol.slice(0, -1)}`
    }
    if (parsed.hostname === "") return "must name a host"
    if (!decodes(parsed.username) || !decodes(parsed.password)) {
      return "must hold a user name and password in valid percent-encoding (UTF-8)"
    }
    return true
  })
)

/** `refs/heads/<branch>`, under the rules of `git check-ref-format`. */
export const BranchRef = boundedString({ min: 1, max: 255 }).pipe(
  Schema.filter((ref) => {
    if (!ref.startsWith("refs/heads/") || ref.length === "refs/heads/".length) return "must be refs/heads/<branch>"
    const bad = ref.split("/").some((part) => part === "" || part.startsWith(".") || part.endsWith(".lock")) ||
      ref.endsWith("/") || ref.endsWith(".") || ref.includes("..") || ref.includes("@{") || ref === "@" ||
      hasControl(ref, true) || /[~^:?*[\\]/.test(ref)
    return bad ? "is not a valid Git ref name (git check-ref-format)" : true
  })
)

/** A URL field other than `url`: an http(s) prefix, never with credentials. */
const PrefixUrl = boundedString({ min: 1, max: 2048 }).pipe(
  Schema.filter((url) => {
    if (hasCredentials(url)) return "must not hold credentials"
    try {
      const parsed = new URL(url)
      return parsed.protocol === "http:" || parsed.protocol === "https:" || "must be an http or https URL"
    } catch {
      return "must be an http or https URL"
    }
  })
)

/** The project directory: a relative path without `..`. */
export const ProjectDirectory = boundedString({ max: 1024 }).pipe(
  Schema.filter((dir) => {
    const parts = dir.replace(/^\.\/+/, "").split("/")
    if (dir.startsWith("/")) return "must be a relative path"
    if (parts.some((p) => p === "..")) return "must not hold .."
    if (hasControl(dir, false) || dir.includes("\\")) return "must not hold control characters or backslashes"
    return true
  })
)

/** Normalized: no leading `./` or `/`, no trailing `/`, no empty or `.` segments. */
export const normalizeDirectory = (dir: string | undefined): string => (dir ?? "").split("/").filter((p) => p !== "" && p !== ".").join("/")

export const GitInfoInput = Schema.Struct({
  provider: Schema.optional(boundedString({ max: 100 })),
  url: Schema.optional(PrefixUrl)
})

const commonFields = {
  url: RepositoryUrl,
  ref: BranchRef,
  repoCacheID: Schema.optional(boundedString({ max: 1024 })),
  repoTreeURL: Schema.optional(PrefixUrl),
  repoCommitURL: Schema.optional(PrefixUrl),
  repoProjectDirectory: Schema.optional(ProjectDirectory),
  timestamp: Schema.optional(Schema.Date),
  force: Schema.optional(Schema.Boolean),
  gitInfo: Schema.optional(GitInfoInput)
}

export const ImportGitInput = Schema.Struct({ ...commonFields, standalone: Schema.optional(Schema.Boolean) })
export type ImportGitInput = typeof ImportGitInput.Type

export const ExportGitInput = Schema.Struct({
  ...commonFields,
  commitMessage: boundedString({ min: 1, max: 4096 }),
  standalone: Schema.optional(Schema.Boolean)
})
export type ExportGitInput = typeof ExportGitInput.Type

export const OperationState = Schema.Literal("running", "success", "failure", "timeout")
export type OperationState = typeof OperationState.Type

export const Direction = Schema.Literal("import", "export")
export type Direction = typeof Direction.Type

/** Where a running operation is (GitBook's `GitSyncOperationStage`). */
export const OperationStage = Schema.Literal("repo_fetch", "config_check", "content_process", "finalize")
export type OperationStage = typeof OperationStage.Type

/** The last (or current) operation of a space's sync; a queued one shows as running. */
export const GitOperation = Schema.Struct({
  state: OperationState,
  direction: Direction,
  startedAt: Schema.Date,
  endedAt: Schema.optional(Schema.Date),
  /** One redacted sentence. */
  error: Schema.optional(StoredString),
  revision: Schema.optional(RevisionId),
  commit: Schema.optional(StoredString),
  /** The server instance that accepted it and runs it (`ServerInstance`): only that one may fail it on restart. */
  owner: Schema.optional(StoredString),
  /** While it runs: its stage, and in `content_process` of an import, the page files read of those to read. */
  stage: Schema.optional(OperationStage),
  progress: Schema.optional(Schema.Struct({ done: Schema.Number, total: Schema.Number }))
})
export type GitOperation = typeof GitOperation.Type

/**
 * What the space remembers of its sync (GitBook's `GitSyncState`), never a credential. Stored as
 * one document per space: the encoded form is what adapters keep.
 */
export const GitSyncState = Schema.Struct({
  spaceId: SpaceId,
  repoName: Schema.optional(StoredString),
  installationProvider: Schema.optional(StoredString),
  url: Schema.optional(StoredString),
  updatedAt: Schema.Date,
  /** The newest `timestamp` accepted (conventions-2.md §8 "timestamp"). */
  timestamp: Schema.optional(Schema.Date),
  operation: Schema.optional(GitOperation),
  /** The last commit Octavo pushed: importing it is a no-op. */
  exportedCommit: Schema.optional(StoredString),
  /** The last commit imported: importing it again without `force` is a no-op. */
  importedCommit: Schema.optional(StoredString),
  /**
   * The blob key of the branch's manifest: the paths Octavo owns there (`Manifest`), as the last import or export
   * left them. An export deletes only those.
   */
  manifest: Schema.optional(StoredString),
  /** `.gitbook.yaml`'s redirects as the last import read them; absent when it declared none. */
  redirects: Schema.optional(Schema.Array(GitRedirect))
})
export type GitSyncState = typeof GitSyncState.Type

/** Whether a space shows its sync (`gitSync`, `GET git/info`): once an operation or a `gitInfo` was recorded. */
export const isShown = (state: GitSyncState): boolean => state.operation !== undefined || state.repoName !== undefined

/**
 * A running operation whose state has not moved for this long has no live server behind it: the
 * one running it rewrites `startedAt` when its next queued operation starts, and each ends within
 * OPERATION_TIMEOUT_MS.
 */
export const ABANDONED_AFTER_MS = 2 * OPERATION_TIMEOUT_MS

/** The `git` metadata of a revision an import made. */
export const RevisionGit = Schema.Struct({
  revisionId: RevisionId,
  spaceId: SpaceId,
  oid: StoredString,
  message: StoredString,
  /** Octavo made the commit by an export (imported again with `force`). */
  createdByService: Schema.Boolean,
  url: Schema.optional(StoredString),
  ref: StoredString
})
export type RevisionGit = typeof RevisionGit.Type

/** A repository URL with its credentials taken out: what may be stored, shown and logged. */
export interface Remote {
  /** The URL without credentials. */
  readonly url: string
  readonly username?: string | undefined
  readonly password?: string | undefined
  readonly ref: string
}

/** Splits a URL's credentials from it. */
export const remoteOf = (url: string, ref: string): Remote => {
  const parsed = new URL(url)
  const username = parsed.username === "" ? undefined : decodeURIComponent(parsed.username)
  const password = parsed.password === "" ? undefined : decodeURIComponent(parsed.password)
  parsed.username = ""
  parsed.password = ""
  return { url: parsed.href, username, password, ref }
}

/** A URL as it may be shown: `https://***@host/…` where it held credentials. */
export const redactUrl = (url: string): string => url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, "$1***@")

/** Text with every URL's credentials and the given secrets masked. */
export const redact = (text: string, secrets: ReadonlyArray<string | undefined>): string => {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, "$1***@")
  for (const secret of secrets) {
    if (secret === undefined || secret.length < 1) continue
    out = out.split(secret).join("***")
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret) out = out.split(encoded).join("***")
  }
  return out
}

/** `owner/repo` from a repository URL. */
export const repoNameOf = (url: string): string | undefined => {
  try {
    const parts = new URL(url).pathname.replace(/\.git$/, "").split("/").filter((p) => p !== "")
    return parts.length >= 2 ? `${parts[parts.length - 2]}/${parts[parts.length - 1]}` : parts[0]
  } catch {
    return undefined
  }
}

// Site-level Git Sync (issue 39): a site's structure from `docs.yaml`, each space's content from its directory.

/** Where one space's import or export of a site operation is (GitBook's `GitSyncSpaceOperation`, without its deprecated counters). */
export const SiteSpaceOperation = Schema.Struct({
  state: OperationState,
  direction: Direction,
  startedAt: Schema.Date,
  updatedAt: Schema.Date,
  completedAt: Schema.optional(Schema.Date),
  error: Schema.optional(StoredString)
})
export type SiteSpaceOperation = typeof SiteSpaceOperation.Type

/** The last (or current) operation of a site's sync (GitBook's `GitSyncSiteOperation`). */
export const SiteOperation = Schema.Struct({
  ...SiteSpaceOperation.fields,
  stage: OperationStage,
  /** The server instance running it: only that one may fail it on restart. */
  owner: Schema.optional(StoredString),
  /** By space id. */
  spaces: Schema.Record({ key: Schema.String, value: SiteSpaceOperation })
})
export type SiteOperation = typeof SiteOperation.Type

/** What a node of `docs.yaml` became in the site, by its key. */
export const SiteNodeLink = Schema.Struct({
  /** The site space, section or section group. */
  id: StoredString,
  /** A space node's space. */
  spaceId: Schema.optional(SpaceId),
  /** A space node's title as last read or written, to tell whether the space was renamed since. */
  title: Schema.optional(StoredString)
})
export type SiteNodeLink = typeof SiteNodeLink.Type

/** What a site remembers of its sync, never a credential: one document per site. */
export const SiteGitSyncState = Schema.Struct({
  siteId: SiteId,
  repoName: Schema.optional(StoredString),
  url: Schema.optional(StoredString),
  ref: Schema.optional(StoredString),
  /** The site's project directory in the repository (normalized). */
  projectDirectory: Schema.optional(Schema.String),
  updatedAt: Schema.Date,
  operation: Schema.optional(SiteOperation),
  /** The configuration's path and text as the last import read it or the last export wrote it. */
  configPath: Schema.optional(StoredString),
  config: Schema.optional(StoredString),
  /** The last commit imported or exported. */
  commit: Schema.optional(StoredString),
  nodes: Schema.Record({ key: Schema.String, value: SiteNodeLink })
})
export type SiteGitSyncState = typeof SiteGitSyncState.Type

export const ImportSiteGitInput = Schema.Struct({
  url: RepositoryUrl,
  ref: BranchRef,
  repoProjectDirectory: Schema.optional(ProjectDirectory),
  force: Schema.optional(Schema.Boolean)
})
export type ImportSiteGitInput = typeof ImportSiteGitInput.Type

export const ExportSiteGitInput = Schema.Struct({
  ...ImportSiteGitInput.fields,
  commitMessage: boundedString({ min: 1, max: 4096 })
})
export type ExportSiteGitInput = typeof ExportSiteGitInput.Type
