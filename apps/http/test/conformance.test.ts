import { MemoryStorage } from "@octavo/adapters-memory"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkAnswer, matchOperation, recordAnswer, takeMismatches } from "./conformance.js"
import { call, testServer } from "./harness.js"
import { formatShared, sharedOperations } from "./sharedOperations.js"

const user = {
  object: "user",
  id: "u1",
  displayName: "Ada",
  email: "ada@example.com",
  urls: { location: "https://docs.test/v1/users/u1" }
}

describe("the GitBook conformance check", () => {
  it("finds GitBook's operation for a concrete path, a page path spanning slashes", () => {
    expect(matchOperation("GET", "/v1/user")?.operationId).toBe("getAuthenticatedUser")
    expect(matchOperation("GET", "/v1/users/u1")?.operationId).toBe("getUserById")
    expect(matchOperation("GET", "/v1/spaces/s1/content/path/getting-started/installation")?.operationId).toBe("getPageByPath")
    expect(matchOperation("GET", "/v1/spaces/s1/content/path/intro")?.operationId).toBe("getPageByPath")
    expect(matchOperation("GET", "/v1/spaces/s1/change-requests/c1/content/path/a/b/c")?.operationId).toBe(
      "getPageInChangeRequestByPath"
    )
    // A literal segment wins over a parameter; the query string is not part of the path.
    expect(matchOperation("GET", "/v1/spaces/s1/content/page/p1?format=markdown")?.operationId).toBe("getPageById")
    expect(matchOperation("GET", "/v1/orgs/o1/members/u1/teams")?.operationId).toBe("listTeamsForOrganizationMember")
    expect(matchOperation("POST", "/v1/orgs/o1/invites")?.operationId).toBe("inviteUsersToOrganization")
    expect(matchOperation("POST", "/v1/orgs/o1/invites/i1")?.operationId).toBe("joinOrganizationWithInvite")
    // A parameter other than a page path is one segment; paths outside /v1 are Octavo's own.
    expect(matchOperation("GET", "/v1/users/u1/extra")).toBeUndefined()
    expect(matchOperation("GET", "/healthz")).toBeUndefined()
    expect(matchOperation("DELETE", "/v1/user")).toBeUndefined()
  })

  it("passes a body of GitBook's shape and names each rule a body breaks, with its place in the body", () => {
    expect(checkAnswer("GET", "/v1/user", 200, user)).toEqual([])
    expect(checkAnswer("GET", "/v1/users/u1", 200, { ...user, photoURL: "https://example.com/a.png" })).toEqual([])

    const { displayName: _, ...withoutName } = user
    expect(checkAnswer("GET", "/v1/user", 200, { ...withoutName, urls: { location: 3 } })).toEqual([
      {
        operation: "getAuthenticatedUser GET /v1/user",
        status: 200,
        pointer: "",
        rule: "required: must have required property 'displayName' (#/components/schemas/User/required)"
      },
      {
        operation: "getAuthenticatedUser GET /v1/user",
        status: 200,
        pointer: "/urls/location",
        rule: "type: must be string (#/components/schemas/User/properties/urls/properties/location/type)"
      }
    ])

    const invited = { users: ["u1"], invited: 2, failedSSOEmails: [] }
    expect(checkAnswer("POST", "/v1/orgs/o1/invites", 200, invited)).toEqual([])
    expect(checkAnswer("POST", "/v1/orgs/o1/invites", 200, { ...invited, invited: ["a@example.com"] })).toEqual([
      expect.objectContaining({ pointer: "/invited", rule: expect.stringMatching(/^type: must be number \(#\/paths\//) })
    ])
  })

  it("narrows a body that matches none of GitBook's alternatives to the closest one's rules", () => {
    const invite = { object: "invite", id: "i1", role: "read", redundant: true }
    expect(checkAnswer("GET", "/v1/orgs/o1/link-invites/i1", 200, invite)).toEqual([])
    const { redundant: _, ...withoutRedundant } = invite
    // Not three alternatives' worth of errors: the organization invite's missing field only.
    expect(checkAnswer("GET", "/v1/orgs/o1/link-invites/i1", 200, withoutRedundant).map((m) => [m.pointer, m.rule])).toEqual([
      [
        "",
        "oneOf: matches none of its 3 shapes; the closest is #/components/schemas/InviteLinkToOrganization " +
        "(#/components/schemas/OrganizationInviteLink/oneOf)"
      ],
      ["", "required: must have required property 'redundant' (#/components/schemas/InviteLinkToOrganization/required)"]
    ])
    // In a list, the place is the item's.
    const listed = checkAnswer("GET", "/v1/orgs/o1/link-invites", 200, { items: [invite, withoutRedundant], count: 2 })
    expect(listed.map((m) => [m.pointer, m.rule.split(" (")[0]])).toEqual([[
      "/items/1",
      "required: must have required property 'redundant'"
    ]])
  })

  it("checks a 201 against GitBook's 200, as its client takes any success", () => {
    const invited = { users: [], invited: 1, failedSSOEmails: [] }
    expect(checkAnswer("POST", "/v1/orgs/o1/invites", 201, invited)).toEqual([])
    expect(checkAnswer("POST", "/v1/orgs/o1/invites", 201, { users: [] })).toEqual([
      expect.objectContaining({ status: 201, pointer: "", rule: expect.stringContaining("'invited'") })
    ])
  })

  it("refuses an empty answer where GitBook answers a JSON body, and accepts it where GitBook answers none", () => {
    expect(checkAnswer("POST", "/v1/orgs/o1/invites/i1", 204, undefined)).toEqual([
      expect.objectContaining({ operation: "joinOrganizationWithInvite POST /v1/orgs/{organizationId}/invites/{inviteId}", status: 204 })
    ])
    expect(checkAnswer("POST", "/v1/orgs/o1/invites/i1", 200, {})).toEqual([])
    // GitBook documents 204 (and 205) without a body for deleting a space.
    expect(checkAnswer("DELETE", "/v1/spaces/s1", 204, undefined)).toEqual([])
  })

  it("checks errors only where GitBook documents their body, and skips statuses GitBook does not document", () => {
    // GitBook documents getAuthenticatedUser's 404 with its error body.
    expect(checkAnswer("GET", "/v1/user", 404, { error: { code: 404, message: "No such user" } })).toEqual([])
    expect(checkAnswer("GET", "/v1/user", 404, { error: { code: 404 } })).toEqual([
      expect.objectContaining({ pointer: "/error", rule: expect.stringContaining("'message'") })
    ])
    // It documents no 403 there, nor a 409 on joining with an invite.
    expect(checkAnswer("GET", "/v1/user", 403, { anything: true })).toEqual([])
    expect(checkAnswer("POST", "/v1/orgs/o1/invites/i1", 409, "no")).toEqual([])
    // Octavo's own operations are not checked.
    expect(checkAnswer("GET", "/healthz", 200, { status: "ok" })).toEqual([])
  })

  it("records each mismatch once, whatever the array position it was seen at", () => {
    const bad = { items: [{ object: "user" }, { object: "user" }] }
    recordAnswer("GET", "/v1/orgs/o1/members", 200, bad)
    recordAnswer("GET", "/v1/orgs/o1/members", 200, bad)
    const recorded = takeMismatches()
    expect(recorded.length).toBeGreaterThan(0)
    expect(new Set(recorded.map((m) => `${m.pointer.replace(/\d+/g, "*")} ${m.rule}`)).size).toBe(recorded.length)
    expect(recorded.every((m) => m.pointer.startsWith("/items/0"))).toBe(true)
    expect(takeMismatches()).toEqual([])
  })
})

describe("the operations Octavo shares with GitBook", () => {
  it.effect("are found by matching the served OpenAPI document against GitBook's", () =>
    Effect.gen(function*() {
      const answer = yield* call("GET", "/openapi.json")
      const shared = sharedOperations(answer.body)
      yield* Effect.logInfo(`Octavo shares ${shared.length} operations with GitBook:\n${formatShared(shared)}`)
      expect(shared.map((operation) => operation.operationId)).toEqual(expect.arrayContaining([...SHARED_TODAY, ...SHARED_REDIRECTS]))
      expect(shared.find((operation) => operation.operationId === "getPageByPath")?.path).toBe(
        "/v1/spaces/{spaceId}/content/path/{pagePath}"
      )
      // Octavo's own operations are not among them.
      expect(shared.some((operation) => operation.path.startsWith("/v1/users/{userId}/tokens"))).toBe(false)
    }).pipe(Effect.provide(testServer(MemoryStorage)), Effect.scoped))
})

/** The 68 operations shared when the check was written; more may join. */
const SHARED_TODAY = [
  "addMemberToOrganizationTeamById",
  "createChangeRequest",
  "createCollection",
  "createOrganization",
  "createOrganizationInvite",
  "createOrganizationTeam",
  "createSpace",
  "deleteCollectionById",
  "deleteMemberFromOrganizationTeamById",
  "deleteOrganizationInviteById",
  "deleteSpaceById",
  "duplicateSpace",
  "getAuthenticatedUser",
  "getChangeRequestById",
  "getCollectionById",
  "getCurrentRevision",
  "getFileById",
  "getFileInChangeRequestById",
  "getMemberInOrganizationById",
  "getOrganizationById",
  "getOrganizationInviteLink",
  "getOrganizationsForEmailDomain",
  "getPageById",
  "getPageByPath",
  "getPageInChangeRequestById",
  "getRevisionById",
  "getRevisionOfChangeRequestById",
  "getSpaceById",
  "getTeamInOrganizationById",
  "getUserById",
  "inviteUsersToOrganization",
  "joinOrganizationWithInvite",
  "listChangeRequestsForSpace",
  "listCollectionsInOrganizationById",
  "listFiles",
  "listFilesInChangeRequestById",
  "listMembersInOrganizationById",
  "listOrganizationInviteLinks",
  "listOrganizationsForAuthenticatedUser",
  "listPages",
  "listPagesInChangeRequest",
  "listSpacesForOrganizationMember",
  "listSpacesInCollectionById",
  "listSpacesInOrganizationById",
  "listTeamMembersInOrganizationById",
  "listTeamsForOrganizationMember",
  "listTeamsInOrganizationById",
  "mergeChangeRequest",
  "moveCollection",
  "moveSpace",
  "removeMemberFromOrganizationById",
  "removeTeamFromOrganizationById",
  "restoreSpace",
  "searchOrganizationContent",
  "searchSpaceContent",
  "setUserAsSSOMemberForOrganization",
  "transferCollection",
  "updateChangeRequest",
  "updateChangeRequestById",
  "updateChangeRequestContent",
  "updateCollectionById",
  "updateMemberInOrganizationById",
  "updateMembersInOrganizationTeam",
  "updateOrganizationById",
  "updateOrganizationInviteById",
  "updateOrganizationMemberLastSeenAt",
  "updateSpaceById",
  "updateTeamInOrganizationById"
]

/** GitBook's site redirects, shared since issue 39. */
const SHARED_REDIRECTS = [
  "bulkUpsertSiteRedirects",
  "createSiteRedirect",
  "deleteSiteRedirectById",
  "getSiteRedirectBySource",
  "listSiteRedirects",
  "updateSiteRedirectById"
]
