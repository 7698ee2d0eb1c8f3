import { emptySiteConfig, patchSiteConfig, type SiteConfigEdit } from "@octavo/markdown"
import { Cause, Effect, Either, Exit, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import type { User } from "../identity/User.js"
import { Conflict, InvalidInput, NotFound } from "../shared/Errors.js"
import type { SiteId, SpaceId } from "../shared/Ids.js"
import type { Localized, TranslationLanguage } from "../shared/Languages.js"
import { validate } from "../shared/Limits.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import type { DeclaredSection, DeclaredSiteSpace, DeclaredStructure } from "../sites/Declared.js"
import type { SiteTree } from "../sites/Site.js"
import { SiteSections } from "../sites/SiteSectionService.js"
import { inOrder } from "../shared/Position.js"
import { SpaceRepository } from "../spaces/Ports.js"
import type { Space } from "../spaces/Space.js"
import { Spaces } from "../spaces/SpaceService.js"
import { joinPath } from "./Format.js"
import {
  ABANDONED_AFTER_MS,
  type Direction,
  ExportSiteGitInput,
  GIT_LIMITS,
  ImportSiteGitInput,
  normalizeDirectory,
  type OperationStage,
  redact,
  type Remote,
  remoteOf,
  repoNameOf,
  type SiteGitSyncState,
  type SiteNodeLink,
  type SiteSpaceOperation
} from "./GitSync.js"
import { GitSyncQueue } from "./GitSyncQueueService.js"
import { sentenceOf } from "./GitSyncWork.js"
import { GitSync } from "./GitSyncService.js"
import { OCTAVO_COMMITTER } from "./Export.js"
import {
  GitFailed,
  GitRepositories,
  type GitSession,
  GitSyncRepository,
  ServerInstance,
  SiteGitSyncRepository,
  type TreeEntry
} from "./Ports.js"
import {
  directoryIn,
  freeKey,
  liveNodes,
  nodesOf,
  parseSiteConfig,
  readSiteConfig,
  SITE_CONFIG_FILES,
  type SiteConfig,
  type SiteConfigNode,
  type SiteConfigSection,
  type SiteConfigSpace
} from "./SiteConfig.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** One site operation, accepted; its credentials live only here. */
interface SiteJob {
  readonly siteId: SiteId
  readonly direction: Direction
  readonly remote: Remote
  /** The URL as given, credentials included, for the spaces' own operations. */
  readonly url: string
  readonly projectDirectory: string
  readonly force: boolean
  readonly commitMessage: string
  readonly actor: User
}

/** Whether two localized texts hold the same languages with the same texts. */
const sameLocalized = (a: Localized, b: Localized) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.keys(a).every((language) => Object.hasOwn(b, language) && a[language] === b[language])

/** A new node's localized field: left out when the item has none. */
const localizedField = (field: string, texts: Localized) => Object.keys(texts).length === 0 ? {} : { [field]: texts }

/** Whether an item's optional text (null when absent) and a node's (undefined when absent) say the same. */
const sameText = (a: string | null | undefined, b: string | null | undefined) => (a ?? null) === (b ?? null)

/**
 * Site-level Git Sync (issue 39; GitBook's `GitSyncSiteConfig` and `GitSyncSiteOperation`): a site's sections, section
 * groups and spaces from `docs.yaml` at the root of its project directory, and each space's content from its
 * directory through the space's own Git Sync. An export writes each space to its directory and `docs.yaml` back, node
 * by node, so that what nobody changed (drafts, hidden entries, localized titles, external links, comments) stays as
 * it was. One operation at a time per site.
 */
export class SiteGitSync extends Effect.Service<SiteGitSync>()("@octavo/domain/SiteGitSync", {
  effect: Effect.gen(function*() {
    const states = yield* SiteGitSyncRepository
    const spaceStates = yield* GitSyncRepository
    const uow = yield* UnitOfWork
    const git = yield* GitRepositories
    const structure = yield* SiteSections
    const spaces = yield* Spaces
    const spaceRows = yield* SpaceRepository
    const spaceSync = yield* GitSync
    const queue = yield* GitSyncQueue
    const instance = yield* ServerInstance

    const stateOf = (siteId: SiteId) => Effect.map(states.find(siteId), Option.getOrUndefined)

    const record = (siteId: SiteId, change: (state: SiteGitSyncState) => SiteGitSyncState) =>
      uow.transaction(Effect.gen(function*() {
        yield* states.lock(siteId)
        const at = yield* now
        const current = (yield* stateOf(siteId)) ?? { siteId, updatedAt: at, nodes: {} }
        yield* states.save(change(current))
      }))

    const stage = (siteId: SiteId, next: OperationStage) =>
      Effect.flatMap(
        now,
        (at) =>
          record(siteId, (s) => s.operation?.state === "running" ? { ...s, operation: { ...s.operation, stage: next, updatedAt: at } } : s)
      )

    /** Runs one space's operation through its own queue and waits for it; answers how it went. */
    const runSpace = (job: SiteJob, session: GitSession, spaceId: SpaceId, directory: string) =>
      Effect.gen(function*() {
        const startedAt = yield* now
        const asked = job.direction === "import"
          ? spaceSync.importRepository(spaceId, {
            url: job.url,
            ref: job.remote.ref,
            repoProjectDirectory: directory,
            force: job.force
          }, { session })
          : spaceSync.exportRepository(spaceId, {
            url: job.url,
            ref: job.remote.ref,
            repoProjectDirectory: directory,
            commitMessage: job.commitMessage
          }, { session })
        const accepted = yield* Effect.either(asked)
        if (Either.isRight(accepted)) yield* queue.settled(spaceId)
        const state = Option.getOrUndefined(yield* spaceStates.find(spaceId))
        const at = yield* now
        const operation = state?.operation
        const failed = Either.isLeft(accepted)
          ? accepted.left.message
          : operation === undefined || operation.state !== "success"
          ? operation?.error ?? "The space's operation did not finish"
          : undefined
        const outcome: SiteSpaceOperation = {
          state: failed === undefined ? "success" : "failure",
          direction: job.direction,
          startedAt,
          updatedAt: at,
          ...(failed === undefined ? { completedAt: at } : { error: failed.slice(0, 1000) })
        }
        yield* record(job.siteId, (s) =>
          s.operation === undefined ? s : { ...s, operation: { ...s.operation, spaces: { ...s.operation.spaces, [spaceId]: outcome } } })
        return outcome
      })

    /** The configuration file of a snapshot: its path and text, if the project directory holds one. */
    const readConfigFile = (
      session: GitSession,
      entries: ReadonlyArray<TreeEntry>,
      projectDirectory: string
    ) =>
      Effect.gen(function*() {
        for (const name of SITE_CONFIG_FILES) {
          const entry = entries.find((e) => e.path === joinPath(projectDirectory, name))
          if (entry === undefined) continue
          if (entry.size > GIT_LIMITS.fileBytes) return yield* new GitFailed({ reason: `${entry.path} is too large`, tooLarge: true })
          const bytes = (yield* session.read([entry])).get(entry.path) ?? new Uint8Array()
          return { path: entry.path, text: decoder.decode(bytes) }
        }
        return undefined
      })

    // Import ----------------------------------------------------------------------------------------------------

    const runImport = (job: SiteJob) =>
      Effect.scoped(Effect.gen(function*() {
        const session = yield* git.open(job.remote)
        const found = yield* session.fetch({ maxBytes: GIT_LIMITS.fetchBytes })
        if (Option.isNone(found)) return yield* new GitFailed({ reason: `The branch ${job.remote.ref} does not exist` })
        yield* stage(job.siteId, "config_check")
        const file = yield* readConfigFile(session, found.value.entries, job.projectDirectory)
        if (file === undefined) {
          return yield* new GitFailed({
            reason: `The project directory holds no ${SITE_CONFIG_FILES.join(" or ")}: import each space on its own instead`
          })
        }
        const config = yield* Either.match(readSiteConfig(file.text), {
          onLeft: (sentence) => Effect.fail(new GitFailed({ reason: `${file.path} ${sentence}` })),
          onRight: Effect.succeed
        })
        const tree = yield* structure.structureFor(job.siteId, "sync this site with Git")
        const state = yield* stateOf(job.siteId)
        const known = state?.nodes ?? {}

        // Each live space node's space: the one it had, else the one of a node reading the same directory, else new.
        // A space's title is the first of its nodes' (in the file's order); the others record it as it is.
        const chosen = new Map<string, { readonly spaceId: SpaceId; readonly title: string }>()
        const byDirectory = new Map<string, SpaceId>()
        const titled = new Map<SpaceId, string>()
        // A space's language too is its first node's, when that node names one.
        const languages = new Map<
          SpaceId,
          { readonly was: TranslationLanguage | undefined; readonly next: TranslationLanguage | undefined }
        >()
        for (const { node } of liveNodes(config)) {
          if (node.type !== "space") continue
          const directory = node.content.directory === null ? undefined : directoryIn(job.projectDirectory, node.content.directory)
          const before = known[node.key]?.spaceId
          const space = before === undefined ? Option.none() : yield* spaceRows.findById(before)
          const title = node.title.slice(0, 50)
          let spaceId: SpaceId
          if (Option.isSome(space) && space.value.organizationId === tree.site.organizationId && space.value.deletedAt === undefined) {
            spaceId = space.value.id
            if (!titled.has(spaceId)) {
              const renamed = known[node.key]?.title !== title && space.value.title !== title
              if (renamed) yield* spaces.update(spaceId, { title })
              titled.set(spaceId, renamed ? title : space.value.title)
            }
          } else if (directory !== undefined && byDirectory.has(directory)) {
            spaceId = byDirectory.get(directory)!
          } else {
            spaceId = (yield* spaces.create(tree.site.organizationId, { title })).space.id
            titled.set(spaceId, title)
          }
          if (directory !== undefined && !byDirectory.has(directory)) byDirectory.set(directory, spaceId)
          chosen.set(node.key, { spaceId, title: titled.get(spaceId) ?? title })
          if (!languages.has(spaceId)) {
            const was = Option.isSome(space) && space.value.id === spaceId ? space.value.language : undefined
            languages.set(spaceId, { was, next: node.content.language ?? was })
          }
        }
        for (const [spaceId, { next, was }] of languages) {
          if (next !== undefined && next !== was) yield* spaces.update(spaceId, { language: next })
        }

        const declaredSpace = (node: SiteConfigSpace): DeclaredSiteSpace => ({
          ref: node.key,
          id: known[node.key]?.id as DeclaredSiteSpace["id"],
          spaceId: chosen.get(node.key)!.spaceId,
          path: node.path,
          condition: node.condition ?? null,
          hidden: node.hidden === true,
          localizedTitle: node.localizedTitle ?? {},
          isDefault: node.default === true
        })
        const declaredSection = (node: SiteConfigSection): DeclaredSection => ({
          ref: node.key,
          id: known[node.key]?.id as DeclaredSection["id"],
          title: node.title,
          localizedTitle: node.localizedTitle ?? {},
          description: node.description ?? null,
          localizedDescription: node.localizedDescription ?? {},
          icon: node.icon ?? null,
          path: node.path,
          condition: node.condition ?? null,
          isDefault: node.default === true,
          siteSpaces: (node.children ?? []).filter((c) => c.draft !== true).map(declaredSpace)
        })
        const sectionsUnder = (nodes: ReadonlyArray<SiteConfigNode>): Array<DeclaredSection> =>
          nodes.filter((n) => n.draft !== true).flatMap((n) =>
            n.type === "section" ? [declaredSection(n)] : n.type === "section-group" ? sectionsUnder(n.children ?? []) : []
          )
        const top = config.site.structure.filter((n) => n.draft !== true)
        const declared: DeclaredStructure = {
          title: config.site.title.trim(),
          items: top.flatMap((n): DeclaredStructure["items"] =>
            n.type === "section"
              ? [{ kind: "section", ...declaredSection(n) }]
              : n.type === "section-group"
              ? [{
                kind: "group",
                ref: n.key,
                id: known[n.key]?.id as never,
                title: n.title,
                localizedTitle: n.localizedTitle ?? {},
                icon: n.icon ?? null,
                sections: sectionsUnder(n.children ?? [])
              }]
              : []
          ),
          siteSpaces: top.filter((n): n is SiteConfigSpace => n.type === "space").map(declaredSpace)
        }
        const ids = yield* structure.declare(job.siteId, declared)
        const nodes: Record<string, SiteNodeLink> = {}
        for (const [ref, id] of ids) {
          const space = chosen.get(ref)
          nodes[ref] = space === undefined ? { id } : { id, spaceId: space.spaceId, title: space.title }
        }
        const at = yield* now
        yield* record(job.siteId, (s) => ({
          ...s,
          nodes,
          config: file.text,
          configPath: file.path,
          commit: found.value.commit,
          updatedAt: at
        }))

        yield* stage(job.siteId, "content_process")
        const directories = new Map<SpaceId, string>()
        for (const { node } of liveNodes(config)) {
          if (node.type !== "space" || node.content.directory === null) continue
          const spaceId = chosen.get(node.key)!.spaceId
          if (!directories.has(spaceId)) directories.set(spaceId, directoryIn(job.projectDirectory, node.content.directory))
        }
        const failed: Array<string> = []
        for (const [spaceId, directory] of directories) {
          const outcome = yield* runSpace(job, session, spaceId, directory)
          if (outcome.state !== "success") failed.push(`${directory || "."}: ${outcome.error ?? "failed"}`)
        }
        if (failed.length > 0) return yield* new GitFailed({ reason: `Some spaces were not imported (${failed.join("; ")})` })
      }))

    // Export ----------------------------------------------------------------------------------------------------

    /**
     * The edits that make `config` describe `tree`: fields of the nodes the site's items came from, nodes of items that
     * left the site taken out, items the site gained added (each new space with a directory of its own). Nodes the site
     * never held (drafts, external links) are left alone.
     */
    const editsFor = (
      config: SiteConfig,
      tree: SiteTree,
      known: Readonly<Record<string, SiteNodeLink>>,
      heldSpaces: ReadonlyMap<SpaceId, Space>
    ) => {
      const edits: Array<SiteConfigEdit> = []
      const nodes: Record<string, SiteNodeLink> = {}
      const used = new Set(nodesOf(config).map((x) => x.node.key))
      const keyOf = new Map<string, string>()
      const directoryOf = new Map<SpaceId, string>()
      const retitled = new Set<SpaceId>()
      const titles = new Map<SpaceId, string>()
      for (const [id, space] of heldSpaces) titles.set(id, space.title)
      const set = (key: string, field: string, value: unknown, was: unknown) => {
        if (value !== was) edits.push({ kind: "set", key, field, value })
      }
      /** A localized text's field: written when the item's differs from the node's, left out when it has none. */
      const setLocalized = (key: string, field: string, held: Localized, was: Localized | undefined) => {
        if (!sameLocalized(held, was ?? {}))
          edits.push({ kind: "set", key, field, value: Object.keys(held).length === 0 ? undefined : held })
      }
      for (const { node } of liveNodes(config)) {
        const link = known[node.key]
        if (link === undefined) continue
        const section = tree.sections.find((s) => s.id === link.id)
        const group = tree.groups.find((g) => g.id === link.id)
        const siteSpace = tree.siteSpaces.find((s) => s.id === link.id)
        if (node.type === "section" && section !== undefined) {
          if (section.title !== node.title) set(node.key, "title", section.title, node.title)
          setLocalized(node.key, "localizedTitle", section.localizedTitle, node.localizedTitle)
          setLocalized(node.key, "localizedDescription", section.localizedDescription, node.localizedDescription)
          if (!sameText(section.description, node.description))
            set(node.key, "description", section.description ?? undefined, node.description)
          if (!sameText(section.icon, node.icon)) set(node.key, "icon", section.icon ?? undefined, node.icon)
          if (section.path !== node.path) set(node.key, "path", section.path, node.path)
          if (!sameText(section.condition, node.condition)) set(node.key, "condition", section.condition ?? undefined, node.condition)
          const isDefault = tree.site.defaultSectionId === section.id
          if (isDefault !== (node.default === true)) set(node.key, "default", isDefault ? true : undefined, node.default)
        } else if (node.type === "section-group" && group !== undefined) {
          if (group.title !== node.title) set(node.key, "title", group.title, node.title)
          setLocalized(node.key, "localizedTitle", group.localizedTitle, node.localizedTitle)
          if (!sameText(group.icon, node.icon)) set(node.key, "icon", group.icon ?? undefined, node.icon)
        } else if (node.type === "space" && siteSpace !== undefined) {
          if (siteSpace.path !== node.path) set(node.key, "path", siteSpace.path, node.path)
          if (!sameText(siteSpace.condition, node.condition)) set(node.key, "condition", siteSpace.condition ?? undefined, node.condition)
          if (siteSpace.hidden !== (node.hidden === true)) set(node.key, "hidden", siteSpace.hidden ? true : undefined, node.hidden)
          setLocalized(node.key, "localizedTitle", siteSpace.localizedTitle, node.localizedTitle)
          const scopeDefault = siteSpace.sectionId === null
            ? tree.site.defaultSiteSpaceId
            : tree.sections.find((s) => s.id === siteSpace.sectionId)?.defaultSiteSpaceId
          const isDefault = scopeDefault === siteSpace.id
          if (isDefault !== (node.default === true)) set(node.key, "default", isDefault ? true : undefined, node.default)
          // A space's title goes to the first of its nodes.
          const title = titles.get(siteSpace.spaceId)
          const first = !retitled.has(siteSpace.spaceId)
          retitled.add(siteSpace.spaceId)
          if (first && title !== undefined && title !== link.title && title !== node.title) set(node.key, "title", title, node.title)
          // Its language goes to every node of the space that names one, and to the first that does not.
          const language = heldSpaces.get(siteSpace.spaceId)?.language
          if (language !== undefined && language !== node.content.language && (first || node.content.language !== undefined)) {
            set(node.key, "content", { ...node.content, language }, node.content)
          }
          if (node.content.directory !== null && !directoryOf.has(siteSpace.spaceId)) {
            directoryOf.set(siteSpace.spaceId, node.content.directory)
          }
        } else {
          edits.push({ kind: "remove", key: node.key })
          continue
        }
        keyOf.set(link.id, node.key)
        nodes[node.key] = siteSpace === undefined
          ? { id: link.id }
          : { id: link.id, spaceId: siteSpace.spaceId, title: titles.get(siteSpace.spaceId) ?? link.title }
      }
      // What the site gained since, in its order.
      const spaceNode = (siteSpace: SiteTree["siteSpaces"][number], isDefault: boolean) => {
        const key = freeKey(used, "space")
        const title = titles.get(siteSpace.spaceId) ?? siteSpace.path
        const language = heldSpaces.get(siteSpace.spaceId)?.language
        const directory = directoryOf.get(siteSpace.spaceId) ?? `./${siteSpace.path}`
        directoryOf.set(siteSpace.spaceId, directory)
        nodes[key] = { id: siteSpace.id, spaceId: siteSpace.spaceId, title }
        keyOf.set(siteSpace.id, key)
        return {
          type: "space",
          key,
          title,
          ...localizedField("localizedTitle", siteSpace.localizedTitle),
          path: siteSpace.path,
          ...(isDefault ? { default: true } : {}),
          ...(siteSpace.hidden ? { hidden: true } : {}),
          ...(siteSpace.condition !== null ? { condition: siteSpace.condition } : {}),
          content: { directory, ...(language !== undefined ? { language } : {}) }
        }
      }
      const addSpaces = (scope: string | null, parentKey: string | null, defaultId: string | null) => {
        for (const siteSpace of inOrder(tree.siteSpaces.filter((s) => s.sectionId === scope))) {
          if (keyOf.has(siteSpace.id)) continue
          edits.push({ kind: "append", parent: parentKey, node: spaceNode(siteSpace, siteSpace.id === defaultId) })
        }
      }
      const sectionNode = (section: SiteTree["sections"][number]) => {
        const key = freeKey(used, "section")
        keyOf.set(section.id, key)
        nodes[key] = { id: section.id }
        return {
          type: "section",
          key,
          title: section.title,
          ...localizedField("localizedTitle", section.localizedTitle),
          path: section.path,
          ...(section.description !== null ? { description: section.description } : {}),
          ...localizedField("localizedDescription", section.localizedDescription),
          ...(section.icon !== null ? { icon: section.icon } : {}),
          ...(tree.site.defaultSectionId === section.id ? { default: true } : {}),
          ...(section.condition !== null ? { condition: section.condition } : {}),
          children: inOrder(tree.siteSpaces.filter((s) => s.sectionId === section.id)).map((s) =>
            spaceNode(s, s.id === section.defaultSiteSpaceId)
          )
        }
      }
      const addSection = (section: SiteTree["sections"][number], parentKey: string | null) => {
        const known = keyOf.get(section.id)
        if (known !== undefined) addSpaces(section.id, known, section.defaultSiteSpaceId)
        else edits.push({ kind: "append", parent: parentKey, node: sectionNode(section) })
      }
      if (tree.site.title !== config.site.title) edits.push({ kind: "set", key: null, field: "title", value: tree.site.title })
      addSpaces(null, null, tree.site.defaultSiteSpaceId)
      const rootItems = inOrder([
        ...tree.sections.filter((s) => s.groupId === null).map((s) => ({ ...s, kind: "section" as const })),
        ...tree.groups.map((g) => ({ ...g, kind: "group" as const }))
      ])
      for (const item of rootItems) {
        if (item.kind === "section") {
          addSection(item, null)
          continue
        }
        const inGroup = inOrder(tree.sections.filter((s) => s.groupId === item.id))
        const key = keyOf.get(item.id)
        if (key !== undefined) {
          for (const section of inGroup) addSection(section, key)
          continue
        }
        const groupKey = freeKey(used, "section-group")
        keyOf.set(item.id, groupKey)
        nodes[groupKey] = { id: item.id }
        edits.push({
          kind: "append",
          parent: null,
          node: {
            type: "section-group",
            key: groupKey,
            title: item.title,
            ...localizedField("localizedTitle", item.localizedTitle),
            ...(item.icon !== null ? { icon: item.icon } : {}),
            children: inGroup.map(sectionNode)
          }
        })
      }
      return { edits, nodes, directoryOf }
    }

    const runExport = (job: SiteJob) =>
      Effect.scoped(Effect.gen(function*() {
        const tree = yield* structure.structureFor(job.siteId, "sync this site with Git")
        const state = yield* stateOf(job.siteId)
        // One working copy for the whole operation: each space's export and docs.yaml's fetch it again, cheaply.
        const session = yield* git.open(job.remote)
        const base = yield* Effect.gen(function*() {
          const found = yield* session.fetch({ maxBytes: GIT_LIMITS.fetchBytes })
          const onBranch = Option.isNone(found)
            ? undefined
            : yield* readConfigFile(session, found.value.entries, job.projectDirectory)
          if (state?.config !== undefined) return { text: state.config, onBranch }
          if (onBranch !== undefined) {
            return yield* new GitFailed({
              reason: `The branch holds a ${onBranch.path} this site did not import: import it first, so that the export keeps it`
            })
          }
          return { text: emptySiteConfig(tree.site.title), onBranch }
        })
        yield* stage(job.siteId, "config_check")
        const parsed = parseSiteConfig(base.text)
        if (Either.isLeft(parsed)) return yield* new GitFailed({ reason: `The site's configuration ${parsed.left}` })
        const config = parsed.right
        const spaceIds = [...new Set(tree.siteSpaces.map((s) => s.spaceId))]
        const held = new Map<SpaceId, Space>()
        for (const found of yield* spaceRows.findMany(spaceIds)) held.set(found.id, found)
        const { directoryOf, edits, nodes } = editsFor(config, tree, state?.nodes ?? {}, held)

        yield* stage(job.siteId, "content_process")
        const failed: Array<string> = []
        for (const spaceId of spaceIds) {
          const directory = directoryOf.get(spaceId)
          if (directory === undefined) continue
          const outcome = yield* runSpace(job, session, spaceId, directoryIn(job.projectDirectory, directory))
          if (outcome.state !== "success") failed.push(`${directory}: ${outcome.error ?? "failed"}`)
        }
        if (failed.length > 0) return yield* new GitFailed({ reason: `Some spaces were not exported (${failed.join("; ")})` })

        yield* stage(job.siteId, "finalize")
        const text = patchSiteConfig(base.text, edits)
        const path = state?.configPath ?? joinPath(job.projectDirectory, SITE_CONFIG_FILES[0])
        const commit = yield* Effect.gen(function*() {
          const found = yield* session.fetch({ maxBytes: GIT_LIMITS.fetchBytes })
          const head = Option.getOrUndefined(found)
          const current = head === undefined ? undefined : yield* readConfigFile(session, head.entries, job.projectDirectory)
          if (current?.text === text) return head?.commit
          const made = yield* session.commit({
            parent: head?.commit ?? null,
            remove: [],
            put: new Map([[path, encoder.encode(text)]]),
            message: job.commitMessage,
            author: { name: job.actor.displayName, email: job.actor.email },
            committer: OCTAVO_COMMITTER
          })
          if (Option.isNone(made)) return head?.commit
          yield* session.push(made.value, { force: false }).pipe(
            Effect.catchTag("GitRejected", () => new GitFailed({ reason: "The branch moved on while exporting (not a fast-forward)" }))
          )
          return made.value
        })
        const at = yield* now
        yield* record(job.siteId, (s) => ({
          ...s,
          nodes,
          config: text,
          configPath: path,
          ...(commit !== undefined ? { commit } : {}),
          updatedAt: at
        }))
      }))

    // Requests --------------------------------------------------------------------------------------------------

    /** Runs an accepted operation to its end and records how it went; never fails. */
    const run = (job: SiteJob) =>
      Effect.gen(function*() {
        const exit = yield* Effect.exit(
          (job.direction === "import" ? runImport(job) : runExport(job)).pipe(Effect.provideService(Actor, job.actor))
        )
        const at = yield* now
        const secrets = [job.remote.password, job.remote.username]
        yield* record(job.siteId, (s) =>
          s.operation === undefined ? s : {
            ...s,
            operation: Exit.isSuccess(exit)
              ? { ...s.operation, state: "success", updatedAt: at, completedAt: at }
              : { ...s.operation, state: "failure", updatedAt: at, error: redact(sentenceOf(exit.cause), secrets).slice(0, 1000) }
          })
        if (Exit.isFailure(exit) && Option.isNone(Cause.failureOption(exit.cause))) {
          yield* Effect.logError("Site Git Sync operation failed", Cause.map(exit.cause, () => "redacted"))
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("Site Git Sync could not record an operation", cause)))

    /** Checks a request, records its operation as running and starts it; a site runs one operation at a time. */
    const accept = (
      siteId: SiteId,
      direction: Direction,
      input: { readonly url: string; readonly ref: string; readonly repoProjectDirectory?: string | undefined },
      options: { readonly force: boolean; readonly commitMessage: string }
    ) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        yield* structure.structureFor(siteId, "sync this site with Git")
        const remote = remoteOf(input.url, input.ref)
        yield* Effect.mapError(git.check(remote), (e) => new InvalidInput({ field: "url", rule: `cannot be reached: ${e.reason}` }))
        const at = yield* now
        yield* uow.transaction(Effect.gen(function*() {
          yield* states.lock(siteId)
          const state = yield* stateOf(siteId)
          if (state?.operation?.state === "running") {
            return yield* new Conflict({ reason: "A Git Sync operation of this site is running: wait for it to end" })
          }
          yield* states.save({
            ...(state ?? { siteId, nodes: {} }),
            url: remote.url,
            repoName: repoNameOf(remote.url),
            ref: remote.ref,
            projectDirectory: normalizeDirectory(input.repoProjectDirectory),
            updatedAt: at,
            operation: { state: "running", direction, stage: "repo_fetch", startedAt: at, updatedAt: at, owner: instance, spaces: {} }
          })
        }))
        yield* Effect.forkDaemon(run({
          siteId,
          direction,
          remote,
          url: input.url,
          projectDirectory: normalizeDirectory(input.repoProjectDirectory),
          force: options.force,
          commitMessage: options.commitMessage,
          actor
        }))
      })

    const importSite = (siteId: SiteId, input: ImportSiteGitInput) =>
      Effect.flatMap(
        validate(ImportSiteGitInput)(input),
        (valid) => accept(siteId, "import", valid, { force: valid.force ?? false, commitMessage: "" })
      )

    const exportSite = (siteId: SiteId, input: ExportSiteGitInput) =>
      Effect.flatMap(
        validate(ExportSiteGitInput)(input),
        (valid) => accept(siteId, "export", valid, { force: valid.force ?? false, commitMessage: valid.commitMessage })
      )

    /** The site's sync state (`structure` role); not found before its first operation. */
    const info = (siteId: SiteId) =>
      Effect.gen(function*() {
        yield* structure.structureFor(siteId, "see this site's Git Sync")
        const state = yield* stateOf(siteId)
        if (state?.operation === undefined) return yield* new NotFound({ entity: "Git Sync state of site", id: siteId })
        return state
      })

    /** Waits until the site's operation is not running (tests, scripts). */
    const settled = (siteId: SiteId) =>
      Effect.gen(function*() {
        while ((yield* stateOf(siteId))?.operation?.state === "running") yield* Effect.sleep("20 millis")
      })

    /**
     * On start: this server's running operations lost their credentials, and those of a server that did not come back
     * (not moved for ABANDONED_AFTER_MS) have nobody to end them; they failed.
     */
    const recover = Effect.gen(function*() {
      const at = yield* now
      const lost = (operation: SiteGitSyncState["operation"]) =>
        operation?.state === "running" &&
        (operation.owner === instance || at.getTime() - operation.updatedAt.getTime() > ABANDONED_AFTER_MS)
      for (const state of yield* states.running()) {
        if (!lost(state.operation)) continue
        yield* record(state.siteId, (s) =>
          s.operation !== undefined && lost(s.operation)
            ? {
              ...s,
              operation: { ...s.operation, state: "failure", updatedAt: at, error: "The server restarted before the operation finished" }
            }
            : s)
      }
    })

    return { importSite, exportSite, info, settled, recover } as const
  })
}) {}
