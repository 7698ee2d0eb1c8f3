import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpClient from "@effect/platform/HttpClient"
import { MemoryStorage } from "@octavo/adapters-memory"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, SchemaAST } from "effect"
import { OctavoApi } from "../src/Api.js"
import { ADMIN_TOKEN, type Answer, call, testServer } from "./harness.js"
import { buildMatrixWorld, buildPeople, type Level, levels, matrixIntegration, matrixSpecText, type MatrixWorld } from "./matrixWorld.js"
import { trackedPageView } from "./scenario.js"

// The authorization matrix (issue 11): every endpoint of OctavoApi, found by reflection, against the
// README's "Who may do what" and "Content permissions" tables and its rules for users and tokens.

/** Who may call an endpoint. */
type Need =
  /** No token needed: answers 200 without one. */
  | { readonly scope: "public" }
  /** Any valid token; no organization is involved (or, for a link invite, its id is the credential). */
  | { readonly scope: "anyUser" }
  /** The instance administrator only: every other user gets 403. */
  | { readonly scope: "instanceAdmin" }
  /** A user is visible to itself, the instance administrator and members of a common organization; others get 404. */
  | { readonly scope: "visibleUser" }
  /** A user manages its own tokens, the instance administrator everyone's: a visible user's are 403, an invisible one's 404. */
  | { readonly scope: "ownTokens" }
  /** An organization's role: `guest` lets every member in; non-members get 404, members below the role 403. */
  | { readonly scope: "organization"; readonly role: Level | "guest"; readonly teamOwner?: true }
  /** A level on a collection or space: non-members and guests get 404 (content is hidden), members below it 403. */
  | { readonly scope: "content"; readonly level: Level }

interface Entry {
  readonly need: Need
  /** A valid body, for endpoints that take one. */
  readonly payload?: (w: MatrixWorld) => unknown
  /** Required query parameters. */
  readonly query?: string
  /** What the least allowed caller gets, when it is not the endpoint's declared success (the reason in a comment). */
  readonly permitted?: number
  /** What the outsider gets, when it is not the need's usual 404 (the reason in a comment). */
  readonly outsider?: number
  /**
   * A PUT that creates what it does not find: A's object named through B, where the outsider is admin, makes B's own
   * (so it is left out of "through B"; its own tests check that A's stays untouched).
   */
  readonly upsert?: true
  /** A guest naming itself as `userId` gets in (README: guests read their own member record and teams, and may leave). */
  readonly self?: true
  /**
   * Visitors call it without a token (insights tracking, decision 2): it has no authentication
   * middleware, checks a token when one comes, and without one hides an unpublished site (404).
   */
  readonly visitors?: true
  /** Done by A's admin in a fresh world before the least allowed caller's call. */
  readonly before?: (w: MatrixWorld) => Effect.Effect<unknown, never, HttpClient.HttpClient>
}

const publicEndpoint: Need = { scope: "public" }
const anyUser: Need = { scope: "anyUser" }
const org = (role: Level | "guest"): Need => ({ scope: "organization", role })
const teamManager: Need = { scope: "organization", role: "admin", teamOwner: true }
const content = (level: Level): Need => ({ scope: "content", level })

const changes = { changes: [{ operation: "insert_page", title: "Added", document: { markdown: "More." } }] }
/** Loopback is refused without OCTAVO_IMPORT_ALLOW: an allowed caller gets past the policy to that 400. */
const website = { source: "website", url: "http://127.0.0.1:9/docs" }
const gitRemote = { url: "http://127.0.0.1:9/docs.git", ref: "refs/heads/main" }
/** A redirect's destination off the site. */
const elsewhere = { kind: "external", url: "https://example.com/moved" }

/** One row per endpoint of OctavoApi, keyed `<group>.<endpoint name>`. */
const matrix: Readonly<Record<string, Entry>> = {
  "health.live": { need: publicEndpoint },
  "health.ready": { need: publicEndpoint },

  "users.me": { need: anyUser },
  "users.create": { need: { scope: "instanceAdmin" }, payload: () => ({ displayName: "Newt", email: "newt.matrix@example.com" }) },
  "users.get": { need: { scope: "visibleUser" } },
  "users.createToken": { need: { scope: "ownTokens" }, payload: () => ({ label: "laptop" }) },
  "users.revokeToken": { need: { scope: "ownTokens" } },

  "organizations.list": { need: anyUser },
  "organizations.create": { need: anyUser, payload: () => ({ title: "Another one" }) },
  "organizations.get": { need: org("guest") },
  "organizations.update": { need: org("admin"), payload: () => ({ title: "Renamed" }) },
  "organizations.byEmailDomain": { need: anyUser },
  "organizations.ping": { need: org("guest") },

  "members.list": { need: org("read") },
  "members.get": { need: org("read"), self: true },
  "members.remove": { need: org("admin"), self: true },
  "members.update": { need: org("admin"), payload: () => ({ role: "comment" }) },
  "members.markSso": { need: org("admin") },
  "members.teams": { need: org("read"), self: true },

  "teams.list": { need: org("read") },
  "teams.create": { need: org("admin"), payload: () => ({ title: "New team" }) },
  "teams.get": { need: org("read") },
  "teams.remove": { need: org("admin") },
  "teams.rename": { need: teamManager, payload: () => ({ title: "Renamed" }) },
  "teams.members": { need: org("read") },
  "teams.updateMembers": { need: teamManager, payload: (w) => ({ add: [w.members.read.id] }) },
  "teams.putMember": { need: teamManager, payload: () => ({ role: "owner" }) },
  "teams.removeMember": { need: teamManager },

  "invites.list": { need: org("admin") },
  "invites.create": { need: org("admin"), payload: () => ({ role: "read" }) },
  "invites.get": { need: org("admin") },
  "invites.remove": { need: org("admin") },
  "invites.update": { need: org("admin"), payload: () => ({ role: "edit" }) },
  "invites.join": { need: anyUser },
  "invites.byEmail": { need: org("admin"), payload: () => ({ emails: ["someone@example.com"] }) },

  // Listing an organization's content is for members with a role (guests get 403, as for search).
  "collections.list": { need: org("read") },
  // At the top of the organization: the `create` role.
  "collections.create": { need: org("create"), payload: () => ({ title: "New collection" }) },
  "collections.get": { need: content("read") },
  "collections.remove": { need: content("admin") },
  "collections.update": { need: content("edit"), payload: () => ({ title: "Renamed" }) },
  "collections.spaces": { need: content("read") },
  "collections.move": { need: content("admin"), payload: () => ({ parent: null }) },
  // Organization admin in both organizations.
  "collections.transfer": { need: content("admin"), payload: (w) => ({ organization: w.transferTarget }) },

  "spaces.list": { need: org("read") },
  "spaces.create": { need: org("create"), payload: () => ({ title: "New space" }) },
  "spaces.get": { need: content("read") },
  "spaces.remove": { need: content("admin") },
  "spaces.update": { need: content("edit"), payload: () => ({ title: "Renamed" }) },
  // `create` under the space's parent collection.
  "spaces.duplicate": { need: content("create") },
  "spaces.restore": {
    need: content("admin"),
    before: (w) => call("DELETE", `/v1/spaces/${w.params.spaceId}`, { token: w.admin.token })
  },
  "spaces.move": { need: content("admin"), payload: () => ({ parent: null }) },
  "spaces.transfer": { need: content("admin"), payload: (w) => ({ organization: w.transferTarget }) },
  "spaces.customFields": { need: content("read") },
  "spaces.setCustomFields": { need: content("edit"), payload: (w) => ({ values: { [w.params.fieldName!]: { value: "writers" } } }) },
  "spaces.memberSpaces": { need: org("read"), self: true },

  "customFields.list": { need: org("read") },
  "customFields.create": { need: org("admin"), payload: () => ({ name: "tier", type: "text" }) },
  "customFields.get": { need: org("read") },
  "customFields.remove": { need: org("admin") },
  "customFields.update": { need: org("admin"), payload: () => ({ title: "Readers" }) },

  "content.current": { need: content("read") },
  "content.editLive": { need: content("edit"), payload: () => changes },
  "content.revision": { need: content("read") },
  "content.pages": { need: content("read") },
  "content.page": { need: content("read") },
  "content.pageByPath": { need: content("read") },
  "content.files": { need: content("read") },
  "content.file": { need: content("read") },
  // The bytes with a 200, though the contract declares no success (so reflection and OpenAPI say 204).
  "content.download": { need: content("read"), permitted: 200 },
  "content.links": { need: content("read") },
  "content.pageLinks": { need: content("read") },
  "content.fileBacklinks": { need: content("read") },

  "changeRequests.create": { need: content("edit"), payload: () => ({ subject: "Another" }) },
  "changeRequests.list": { need: content("read") },
  "changeRequests.get": { need: content("read") },
  "changeRequests.update": { need: content("edit"), payload: () => ({ subject: "Renamed" }) },
  "changeRequests.edit": { need: content("edit"), payload: () => changes },
  "changeRequests.content": { need: content("read") },
  "changeRequests.pages": { need: content("read") },
  "changeRequests.page": { need: content("read") },
  "changeRequests.pageByPath": { need: content("read") },
  "changeRequests.files": { need: content("read") },
  "changeRequests.file": { need: content("read") },
  "changeRequests.download": { need: content("read"), permitted: 200 },
  "changeRequests.fileBacklinks": { need: content("read") },
  "changeRequests.pageLinks": { need: content("read") },
  "changeRequests.merge": { need: content("review") },
  "changeRequests.updateFromSpace": { need: content("edit") },

  // Comments: read with read; post, reply and react with comment; delete as the author (A's admin) or an admin.
  "comments.list": { need: content("read") },
  "comments.post": { need: content("comment"), payload: () => ({ body: { markdown: "A remark." } }) },
  "comments.get": { need: content("read") },
  "comments.update": { need: content("comment"), payload: () => ({ addedReactions: ["👍"] }) },
  "comments.remove": { need: content("admin") },
  "comments.listReplies": { need: content("read") },
  "comments.reply": { need: content("comment"), payload: () => ({ body: { markdown: "Agreed." } }) },
  "comments.getReply": { need: content("read") },
  "comments.updateReply": { need: content("comment"), payload: () => ({ addedReactions: ["1f389"] }) },
  "comments.removeReply": { need: content("admin") },

  "search.space": { need: content("read"), query: "query=welcome" },
  // Guests may not search an organization (README, Search).
  "search.organization": { need: org("read"), query: "query=welcome" },

  // Sites follow the organization role and hide from guests (conventions-2.md §0): read every GET,
  // create for sites and their structure and publishing, admin for settings, share links and publishing auth.
  "sites.list": { need: content("read") },
  "sites.create": { need: content("create"), payload: () => ({ title: "Another site" }) },
  "sites.get": { need: content("read") },
  "sites.update": { need: content("admin"), payload: () => ({ title: "Renamed site" }) },
  "sites.remove": { need: content("admin") },
  "sites.publish": { need: content("create") },
  "sites.unpublish": { need: content("create") },
  "sites.getAdaptiveSchema": { need: content("read") },
  "sites.setAdaptiveSchema": {
    need: content("admin"),
    payload: () => ({ jsonSchema: { type: "object", properties: {}, additionalProperties: false } })
  },
  "sites.getPublished": { need: content("read") },
  "sites.getStructure": { need: content("read") },
  "sites.getPublishingAuth": { need: content("admin") },
  "sites.updatePublishingAuth": { need: content("admin"), payload: () => ({ fallbackURL: "https://acme.test/login" }) },
  "sites.regeneratePublishingAuth": { need: content("admin") },
  "siteStructure.listSiteSpaces": { need: content("read") },
  "siteStructure.addSiteSpace": {
    need: content("create"),
    payload: (w) => ({ spaceId: w.params.spaceId, sectionId: w.params.siteSectionId })
  },
  "siteStructure.updateSiteSpace": { need: content("create"), payload: () => ({ path: "renamed" }) },
  "siteStructure.removeSiteSpace": { need: content("create") },
  "siteStructure.moveSiteSpace": { need: content("create"), payload: () => ({}) },
  "siteStructure.listSections": { need: content("read") },
  "siteStructure.addSection": { need: content("create"), payload: (w) => ({ spaceId: w.params.secondSpaceId, title: "Extra section" }) },
  "siteStructure.getSection": { need: content("read") },
  "siteStructure.updateSection": { need: content("create"), payload: () => ({ title: "Renamed section" }) },
  "siteStructure.removeSection": { need: content("create") },
  "siteStructure.moveSection": { need: content("create"), payload: () => ({}) },
  "siteStructure.listGroups": { need: content("read") },
  "siteStructure.addGroup": { need: content("create"), payload: () => ({ title: "Another group" }) },
  "siteStructure.updateGroup": { need: content("create"), payload: () => ({ title: "Renamed group" }) },
  "siteStructure.removeGroup": { need: content("create") },
  "siteStructure.addSectionToGroup": { need: content("create"), payload: (w) => ({ sectionId: w.params.firstSectionId }) },
  "siteStructure.removeSectionFromGroup": { need: content("create") },
  "siteStructure.moveGroup": { need: content("create"), payload: () => ({}) },
  // Share links carry their keys: only admins list or touch them.
  "shareLinks.listShareLinks": { need: content("admin") },
  "shareLinks.createShareLink": { need: content("admin"), payload: () => ({ name: "Reviewers" }) },
  "shareLinks.updateShareLink": { need: content("admin"), payload: () => ({ active: false }) },
  "shareLinks.removeShareLink": { need: content("admin") },
  // Redirects (issue 39): members with read list and resolve them, editors write them (GitBook's site:read and site:write).
  "siteRedirects.listSiteRedirects": { need: content("read") },
  "siteRedirects.createSiteRedirect": { need: content("edit"), payload: () => ({ source: "/another", destination: elsewhere }) },
  "siteRedirects.bulkUpsertSiteRedirects": {
    need: content("edit"),
    payload: () => ({ redirects: [{ source: "/bulk", destination: elsewhere }] })
  },
  "siteRedirects.updateSiteRedirectById": { need: content("edit"), payload: () => ({ permanent: true }) },
  "siteRedirects.deleteSiteRedirectById": { need: content("edit") },
  "siteRedirects.getSiteRedirectBySource": { need: content("read"), query: "source=%2Fold" },

  // Insights: any member with a role tracks and reads (conventions-2.md §0 and decision 2).
  "insights.track": { need: content("read"), payload: () => ({ events: [trackedPageView] }), visitors: true },
  "insights.aggregate": { need: content("read"), payload: () => ({ range: "last7Days" }) },
  "insights.segments": { need: content("read") },

  // SAML providers are the admins' (conventions-2.md §4); every member, guests included, lists the ones to sign in with
  // (decision 3); any user looks up a subdomain (B's, in the world).
  "sso.listProviders": { need: org("admin") },
  "sso.createProvider": { need: org("admin"), payload: () => ({ label: "Another IdP" }) },
  "sso.getProvider": { need: org("admin") },
  "sso.updateProvider": { need: org("admin"), payload: () => ({ label: "Renamed IdP" }) },
  "sso.removeProvider": { need: org("admin") },
  "sso.logins": { need: org("guest") },
  "sso.subdomain": { need: anyUser },

  // Translation settings: members with a role read them, as the organization's other settings; admins write.
  "translations.list": { need: org("read") },
  "translations.create": { need: org("admin"), payload: () => ({ title: "Guides" }) },
  "translations.get": { need: org("read") },
  "translations.replace": { need: org("admin"), payload: () => ({ title: "Renamed", languages: ["de"] }) },
  "translations.remove": { need: org("admin") },

  // Integrations (conventions-2.md §7): A's is private, so only A's members see it, guests included; its owner's
  // admins manage it and every installation, an organization's admins theirs.
  "integrations.list": { need: anyUser },
  "integrations.get": { need: org("guest") },
  // Naming A as the publisher is a body reference: the outsider is no member of A (400).
  "integrations.publish": { need: org("admin"), payload: (w) => matrixIntegration(w.organizationId), outsider: 400 },
  "integrations.unpublish": { need: org("admin") },
  "integrations.listInstallations": { need: org("guest") },
  // A has it installed already: uninstalled first, so that the admin installs it anew.
  "integrations.install": {
    need: org("admin"),
    payload: (w) => ({ organization: w.organizationId }),
    before: (w) =>
      call("DELETE", `/v1/integrations/${w.params.integrationName}/installations/${w.params.installationId}`, { token: w.admin.token })
  },
  "integrations.getInstallation": { need: org("admin") },
  "integrations.updateInstallation": { need: org("admin"), payload: () => ({ externalIds: ["matrix"] }) },
  "integrations.uninstall": { need: org("admin") },
  // The world's integration has no images: a member gets past the visibility check to that 404 (the bytes are in integrations.test.ts).
  "integrations.asset": { need: org("guest"), permitted: 404 },

  // OpenAPI specs (conventions-2.md §5): members with read read them, create writes them.
  "openapi.list": { need: org("read") },
  "openapi.create": { need: org("create"), payload: () => ({ slug: "another", source: { text: matrixSpecText } }) },
  "openapi.get": { need: org("read") },
  // The world's spec exists: the PUT updates it (200); one that creates answers 201.
  "openapi.put": { need: org("create"), payload: () => ({ source: { text: matrixSpecText } }), permitted: 200, upsert: true },
  "openapi.remove": { need: org("create") },
  "openapi.listVersions": { need: org("read") },
  "openapi.latestVersion": { need: org("read") },
  "openapi.latestContent": { need: org("read") },
  "openapi.version": { need: org("read") },

  "import.space": { need: content("edit"), payload: () => website, permitted: 400 },
  "import.changeRequest": { need: content("edit"), payload: () => website, permitted: 400 },

  // Git Sync (conventions-2.md §8): the loopback repository is refused by the fetch guard (400) once the role is proven;
  // a space with nothing recorded has no info (404) for a reader.
  "gitsync.importRepository": { need: content("create"), payload: () => gitRemote, permitted: 400 },
  "gitsync.exportRepository": { need: content("create"), payload: () => ({ ...gitRemote, commitMessage: "Docs" }), permitted: 400 },
  "gitsync.info": { need: content("read"), permitted: 404 },
  // A site's Git Sync needs the role that changes its structure; its info is 404 until a first operation.
  "siteGitSync.importSiteRepository": { need: content("create"), payload: () => gitRemote, permitted: 400 },
  "siteGitSync.exportSiteRepository": { need: content("create"), payload: () => ({ ...gitRemote, commitMessage: "Docs" }), permitted: 400 },
  "siteGitSync.siteGitInfo": { need: content("create"), permitted: 404 }
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/** An endpoint of OctavoApi as reflection finds it. */
interface Endpoint {
  readonly key: string
  readonly method: Method
  readonly path: string
  /** The names of its path parameters, from its path schema. */
  readonly params: ReadonlyArray<string>
  readonly authenticated: boolean
  readonly hasPayload: boolean
  readonly successes: ReadonlyArray<number>
}

const endpoints: Array<Endpoint> = []
HttpApi.reflect(OctavoApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint, group, middleware, payloads, successes }) => {
    endpoints.push({
      key: `${group.identifier}.${endpoint.name}`,
      method: endpoint.method as Method,
      path: endpoint.path,
      params: Option.match(endpoint.pathSchema, {
        onNone: () => [],
        onSome: (schema) => SchemaAST.getPropertySignatures(schema.ast).map((p) => String(p.name))
      }),
      authenticated: [...middleware].some((m) => "security" in m),
      hasPayload: payloads.size > 0,
      successes: [...successes.keys()]
    })
  }
})

const label = (e: Endpoint) => `${e.key} (${e.method} ${e.path})`

/** The endpoint's URL with each path parameter filled by name. */
const urlOf = (e: Endpoint, params: Readonly<Record<string, string>>) => {
  const path = e.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined)
      throw new Error(`${label(e)}: the matrix world has no value for the path parameter "${name}"; add it to \`params\` in matrixWorld.ts`)
    return encodeURIComponent(value)
  })
  const query = matrix[e.key]?.query
  return query === undefined ? path : `${path}?${query}`
}

const send = (e: Endpoint, w: MatrixWorld, token: string | undefined, params = w.params) =>
  call(e.method, urlOf(e, params), { token, body: e.hasPayload ? matrix[e.key]?.payload?.(w) : undefined })

/** States the status with the endpoint and the caller, so that a failure says which. */
const expectStatus = (e: Endpoint, caller: string, answer: Answer, status: number) =>
  expect([label(e), caller, answer.status, answer.body]).toEqual([
    label(e),
    caller,
    status,
    status >= 400 ? { error: { code: status, message: expect.any(String) } } : answer.body
  ])

interface Caller {
  readonly name: string
  readonly token: string
}

const rank = (role: Level) => levels.indexOf(role)

/** The members of A refused by the need, with the status each gets. */
const refusedMembers = (need: Need, w: MatrixWorld): ReadonlyArray<readonly [Caller, number]> => {
  const member = (level: Level): Caller => ({ name: `${level} member`, token: w.members[level].token })
  const guest: Caller = { name: "guest", token: w.guest.token }
  switch (need.scope) {
    case "organization":
      return need.role === "guest" ? [] : [
        [guest, 403],
        ...levels.filter((l) => rank(l) < rank(need.role as Level)).map((l) => [member(l), 403] as const)
      ]
    case "content":
      return [[guest, 404], ...levels.filter((l) => rank(l) < rank(need.level)).map((l) => [member(l), 403] as const)]
    case "instanceAdmin":
      return [[guest, 403], ...levels.map((l) => [member(l), 403] as const)]
    case "ownTokens":
      // Not the target itself: those are its own tokens.
      return [[guest, 403], ...levels.map((l) => [member(l), 403] as const)]
    default:
      return []
  }
}

/** The least caller the need lets in: its name, and its token in a world (none: no token). */
const leastAllowed = (need: Need): { readonly name: string; readonly token: (w: MatrixWorld) => string | undefined } => {
  switch (need.scope) {
    case "public":
      return { name: "no token", token: () => undefined }
    case "anyUser":
      return { name: "outsider", token: (w) => w.outsider.token }
    case "instanceAdmin":
      return { name: "instance admin", token: () => ADMIN_TOKEN }
    case "visibleUser":
      return { name: "guest of a common organization", token: (w) => w.guest.token }
    case "ownTokens":
      return { name: "the user itself", token: (w) => w.target.token }
    case "organization": {
      const role = need.role
      return need.teamOwner === true
        ? { name: "team owner (read role)", token: (w) => w.target.token }
        : role === "guest"
        ? { name: "guest", token: (w) => w.guest.token }
        : { name: `${role} member`, token: (w) => w.members[role].token }
    }
    case "content": {
      const level = need.level
      return { name: `${level} member`, token: (w) => w.members[level].token }
    }
  }
}

/** Every GET endpoint as A's admin sees it in A, and as the outsider sees it in B: what a refused write must leave alone. */
const snapshot = (w: MatrixWorld) =>
  Effect.forEach(endpoints.filter((e) => e.method === "GET"), (e) =>
    Effect.all([
      Effect.map(send(e, w, w.admin.token), (a) => [label(e), a.status, a.body]),
      Effect.map(send(e, w, w.outsider.token, w.crossParams), (a) => [label(e), a.status, a.body])
    ]))

class World extends Context.Tag("AuthorizationMatrixWorld")<World, { readonly w: MatrixWorld; readonly before: unknown }>() {}

const WorldLive = Layer.effect(
  World,
  Effect.gen(function*() {
    const w = yield* buildMatrixWorld(yield* buildPeople)
    return { w, before: yield* snapshot(w) }
  })
).pipe(Layer.provideMerge(testServer(MemoryStorage)))

const known = endpoints.filter((e) => matrix[e.key] !== undefined)
const needOf = (e: Endpoint) => (matrix[e.key] as Entry).need

layer(WorldLive, { excludeTestServices: true })("authorization matrix", (it) => {
  describe("the matrix is OctavoApi", () => {
    it("every endpoint of OctavoApi has a row, and every row is an endpoint", () => {
      const missing = endpoints.filter((e) => matrix[e.key] === undefined).map((e) =>
        `${label(e)} has no row: add "${e.key}": { need: ..., payload?: ... } to \`matrix\` in apps/http/test/authorizationMatrix.test.ts`
      )
      const stale = Object.keys(matrix).filter((key) => !endpoints.some((e) => e.key === key)).map((key) =>
        `"${key}" is in \`matrix\` but is no endpoint of OctavoApi: remove it, or rename it after the endpoint`
      )
      expect([...missing, ...stale]).toEqual([])
      expect(Object.keys(matrix).length).toBe(endpoints.length)
    })

    it("public rows are exactly the endpoints without authentication; every body is given", () => {
      const wrong = known.flatMap((e) => {
        const entry = matrix[e.key] as Entry
        return [
          ...(entry.need.scope === "public" || entry.visitors === true) === e.authenticated
            ? [
              `${label(e)}: ${
                e.authenticated ? "authenticated, but its row says public or visitors" : "public, but its row names a caller"
              }`
            ]
            : [],
          ...(e.hasPayload && entry.payload === undefined ? [`${label(e)}: takes a body, give its row a \`payload\``] : []),
          ...(!e.hasPayload && entry.payload !== undefined ? [`${label(e)}: takes no body, but its row has a \`payload\``] : [])
        ]
      })
      expect(wrong).toEqual([])
    })

    it.effect("every path parameter is filled from the world by its name", () =>
      Effect.gen(function*() {
        const { w } = yield* World
        const unfilled = endpoints.flatMap((e) =>
          e.params.filter((name) => w.params[name] === undefined).map((name) =>
            `${label(e)}: add "${name}" to \`params\` in matrixWorld.ts`
          )
        )
        expect(unfilled).toEqual([])
        expect(endpoints.filter((e) => e.params.join() !== [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]).join()).map(label)).toEqual([])
      }))
  })

  describe("without a token", () => {
    for (const e of known) {
      if (needOf(e).scope === "public") {
        it.effect(`${label(e)}: public, 200 without a token`, () =>
          Effect.gen(function*() {
            const { w } = yield* World
            expectStatus(e, "no token", yield* send(e, w, undefined), 200)
          }))
      } else if ((matrix[e.key] as Entry | undefined)?.visitors === true) {
        it.effect(`${label(e)}: no token → 404 (the site is not published), an unknown token → 401`, () =>
          Effect.gen(function*() {
            const { w } = yield* World
            expectStatus(e, "no token", yield* send(e, w, undefined), 404)
            const unknown = yield* send(e, w, "not-a-token")
            expectStatus(e, "unknown token", unknown, 401)
            expect(unknown.body.error.message).toMatch(/bearer token/i)
          }))
      } else {
        it.effect(`${label(e)}: no token, an unknown token → 401`, () =>
          Effect.gen(function*() {
            const { w } = yield* World
            for (const token of [undefined, "not-a-token"]) {
              const answer = yield* send(e, w, token)
              expectStatus(e, token ?? "no token", answer, 401)
              expect(answer.body.error.message).toMatch(/bearer token/i)
            }
          }))
      }
    }
  })

  describe("a user of another organization", () => {
    for (const e of known) {
      const need = needOf(e)
      if (need.scope === "public" || (need.scope === "anyUser" && e.method !== "GET")) continue
      if (need.scope === "anyUser") {
        it.effect(`${label(e)}: the outsider → 200, with nothing of organization A`, () =>
          Effect.gen(function*() {
            const { w } = yield* World
            const answer = yield* send(e, w, w.outsider.token)
            expectStatus(e, "outsider", answer, 200)
            expect(JSON.stringify(answer.body)).not.toContain(w.organizationId)
          }))
        continue
      }
      const status = (matrix[e.key] as Entry).outsider ?? (need.scope === "instanceAdmin" ? 403 : 404)
      it.effect(`${label(e)}: the outsider → ${status}`, () =>
        Effect.gen(function*() {
          const { w } = yield* World
          const answer = yield* send(e, w, w.outsider.token)
          expectStatus(e, "outsider", answer, status)
          // Nothing the caller did not name: not even which organization holds the object.
          const url = urlOf(e, w.params)
          expect(Object.values(w.params).filter((id) => !url.includes(id) && answer.body.error.message.includes(id))).toEqual([])
        }))
    }
    // A's objects named through B, where the outsider is admin, are not found either.
    for (
      const e of known.filter((e) =>
        e.params.some((p) => p === "organizationId" || p === "spaceId") && e.params.length > 1 && matrix[e.key]?.upsert !== true
      )
    ) {
      it.effect(`${label(e)}: A's ${e.params.filter((p) => p !== "organizationId" && p !== "spaceId").join(", ")} through B → 404`, () =>
        Effect.gen(function*() {
          const { w } = yield* World
          expectStatus(e, "outsider through B", yield* send(e, w, w.outsider.token, w.crossParams), 404)
        }))
    }
  })

  describe("a member below the need", () => {
    for (const e of known) {
      const need = needOf(e)
      if (need.scope === "public" || need.scope === "anyUser" || need.scope === "visibleUser") continue
      if (need.scope === "organization" && need.role === "guest") continue
      const what = need.scope === "content"
        ? `below ${need.level} → 403, guest → 404`
        : need.scope === "organization"
        ? `below ${need.role}${need.teamOwner === true ? " and not the team's owner" : ""} → 403`
        : need.scope === "instanceAdmin"
        ? "every user → 403"
        : "another member → 403"
      it.effect(`${label(e)}: ${what}`, () =>
        Effect.gen(function*() {
          const { w } = yield* World
          for (const [caller, status] of refusedMembers(need, w)) {
            expectStatus(e, caller.name, yield* send(e, w, caller.token), status)
          }
        }))
    }
  })

  it.effect("refused calls changed nothing: every GET answers as before, in A and in B", () =>
    Effect.gen(function*() {
      const { before, w } = yield* World
      expect(yield* snapshot(w)).toEqual(before)
    }))

  it.effect("a guest naming a collection it cannot see as parent learns nothing of it: 400 as for an unknown one", () =>
    Effect.gen(function*() {
      const { w } = yield* World
      for (const kind of ["spaces", "collections"]) {
        const { collectionId, organizationId } = w.params
        const hidden = yield* call("POST", `/v1/orgs/${organizationId}/${kind}`, { token: w.guest.token, body: { parent: collectionId } })
        const unknown = yield* call("POST", `/v1/orgs/${organizationId}/${kind}`, {
          token: w.guest.token,
          body: { parent: "no-such-collection" }
        })
        expect([kind, hidden.status, unknown.status]).toEqual([kind, 400, 400])
        expect(hidden.body.error.message).toBe(unknown.body.error.message.replace("no-such-collection", collectionId))
      }
    }))

  describe("a guest naming itself", () => {
    for (const e of known.filter((e) => matrix[e.key]?.self === true)) {
      it.effect(`${label(e)}: the guest as userId → ${e.successes.join(", ")}`, () =>
        Effect.gen(function*() {
          const shared = (yield* World).w
          const w = e.method === "GET" ? shared : yield* buildMatrixWorld(shared)
          expectStatus(e, "guest itself", yield* send(e, w, w.guest.token, { ...w.params, userId: w.guest.id }), e.successes[0] ?? -1)
        }))
    }
  })

  describe("the least allowed caller gets in", () => {
    for (const e of known) {
      const entry = matrix[e.key] as Entry
      const expected = entry.permitted ?? (e.successes.length === 1 ? e.successes[0] : undefined)
      const caller = leastAllowed(entry.need)
      it.effect(`${label(e)}: ${caller.name} → ${expected}`, () =>
        Effect.gen(function*() {
          // Writes change the world: each gets an organization of its own, with the same people.
          const shared = (yield* World).w
          const w = e.method === "GET" ? shared : yield* buildMatrixWorld(shared)
          if (entry.before !== undefined) yield* entry.before(w)
          expectStatus(e, caller.name, yield* send(e, w, caller.token(w)), expected ?? -1)
        }))
    }
  })
})
