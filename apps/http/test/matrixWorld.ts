import { readFileSync } from "node:fs"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { ADMIN_TOKEN, call } from "./harness.js"
import { newUser, type TestUser } from "./scenario.js"

/** An identity provider's certificate (RSA, self-signed, made once with `openssl req -x509`). */
const samlCertificate = readFileSync(new URL("./fixtures/saml-idp.pem", import.meta.url), "utf8")

/** The body that publishes the world's private integration for organization A. */
export const matrixIntegration = (organizationId: string) => ({
  organization: organizationId,
  title: "Acme Tool",
  description: "Private to Acme",
  scopes: ["space:content:read"],
  script: "export default {}"
})

/** A valid OpenAPI document: the world's spec, and what writes of specs send. */
export const matrixSpecText = JSON.stringify({ openapi: "3.1.0", info: { title: "Pets", version: "1.0.0" }, paths: {} })

/** Organization roles from least to most, as the README's tables order them. */
export const levels = ["read", "comment", "edit", "review", "create", "admin"] as const
export type Level = typeof levels[number]

/** A successful call of the world's setup: its status is stated, its body returned. */
const made = (method: "POST" | "PUT" | "PATCH", path: string, token: string, body: unknown, status = method === "PATCH" ? 200 : 201) =>
  Effect.map(call(method, path, { token, body }), (answer) => {
    expect([method, path, answer.status, answer.body]).toEqual([method, path, status, answer.body])
    return answer.body
  })

/**
 * The people of the authorization matrix: a user for each role, a guest, `target` (role read, a
 * team's owner, the subject of every `userId`) and A's admin, who also owns `transferTarget`, where
 * transfers may land; `outsider` is the admin of organization B (with a space of its own) and
 * nothing else. Users are global, so that write checks can reuse them in organizations of their own.
 */
export const buildPeople = Effect.gen(function*() {
  const admin = yield* newUser("Ada Admin")
  const members: Partial<Record<Level, TestUser>> = { admin }
  for (const level of levels.filter((l) => l !== "admin")) members[level] = yield* newUser(`Mia ${level}`)
  const guest = yield* newUser("Gus Guest")
  const target = yield* newUser("Tess Target")
  const outsider = yield* newUser("Otto Outsider")
  const otherOrganizationId = (yield* made("POST", "/v1/orgs", outsider.token, { title: "Other Org" })).id as string
  const otherSpaceId = (yield* made("POST", `/v1/orgs/${otherOrganizationId}/spaces`, outsider.token, { title: "Theirs" })).id as string
  // B's hostname is the subdomain any user may look up: it names B, which the outsider may know.
  const otherSubdomain = (yield* made("PATCH", `/v1/orgs/${otherOrganizationId}`, outsider.token, { hostname: "other-org" }))
    .hostname as string
  const transferTarget = (yield* made("POST", "/v1/orgs", admin.token, { title: "Acme Archive" })).id as string
  return {
    admin,
    members: members as Record<Level, TestUser>,
    guest,
    target,
    outsider,
    otherOrganizationId,
    otherSpaceId,
    otherSubdomain,
    transferTarget
  }
})

export type People = Effect.Effect.Success<typeof buildPeople>

/**
 * The authorization matrix's fixture, built through HTTP only: organization A, created by the
 * people's admin, with a member at each role, a guest and the target; a collection holding a
 * space with a page, a file, a revision and a change request with a comment and its reply; a team owned by the target, a link
 * invite, a custom field, an email domain, and a spare token of the target's.
 */
export const buildMatrixWorld = (people: People) =>
  Effect.gen(function*() {
    const { admin, guest, members, otherOrganizationId, otherSpaceId, target } = people
    const organizationId = (yield* made("POST", "/v1/orgs", admin.token, { title: "Acme Docs" })).id as string
    const org = `/v1/orgs/${organizationId}`
    // Everyone joins in one call (existing users are added with their roles); the guest then loses its role.
    const joined = yield* made("POST", `${org}/invites`, admin.token, {
      emails: [
        ...levels.filter((l) => l !== "admin").map((role) => ({ email: members[role].email, role })),
        { email: guest.email, role: "read" },
        { email: target.email, role: "read" }
      ]
    }, 200)
    expect(joined.invited).toBe(0)
    yield* made("PATCH", `${org}/members/${guest.id}`, admin.token, { role: null })

    const emailDomain = "acme.test"
    yield* made("PATCH", org, admin.token, { emailDomains: [emailDomain] })
    const teamId = (yield* made("PUT", `${org}/teams`, admin.token, { title: "Writers", members: [target.id] })).id as string
    const putOwner = yield* call("PUT", `${org}/teams/${teamId}/members/${target.id}`, { token: admin.token, body: { role: "owner" } })
    expect(putOwner.status).toBe(204)
    const inviteId = (yield* made("POST", `${org}/link-invites`, admin.token, { role: "read" })).id as string
    const fieldName = (yield* made("POST", `${org}/custom-fields`, admin.token, { name: "audience", type: "text", title: "Audience" }))
      .name as string
    const tokenId = (yield* made("POST", `/v1/users/${target.id}/tokens`, ADMIN_TOKEN, { label: "spare" })).id as string

    const collectionId = (yield* made("POST", `${org}/collections`, admin.token, { title: "Guides" })).id as string
    const spaceId = (yield* made("POST", `${org}/spaces`, admin.token, { title: "Handbook", parent: collectionId })).id as string
    const revision = yield* made("POST", `/v1/spaces/${spaceId}/content`, admin.token, {
      changes: [
        { operation: "insert_page", document: { markdown: "# Welcome\n\nInstall the [tool](https://example.com/tool)." } },
        // JSON bytes, so that the harness's JSON reading of a download answer works too.
        {
          operation: "insert_files",
          files: [{ name: "data.json", contentType: "application/json", base64: btoa("{\"hello\":\"world\"}") }]
        }
      ]
    }, 200)
    const changeRequestId = (yield* made("POST", `/v1/spaces/${spaceId}/change-requests`, admin.token, { subject: "Draft" })).id as string
    yield* made("POST", `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`, admin.token, {
      changes: [{ operation: "insert_page", title: "Changelog", document: { markdown: "Nothing yet." } }]
    }, 200)
    const comments = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments`
    const commentId = (yield* made("POST", comments, admin.token, { body: { markdown: "Worth a look." } })).id as string
    const commentReplyId = (yield* made("POST", `${comments}/${commentId}/replies`, admin.token, { body: { markdown: "Done." } }))
      .id as string

    // A site in sections: S1 (the default) holds the handbook and a second space, S2 (in a group) the second space.
    const secondSpaceId = (yield* made("POST", `${org}/spaces`, admin.token, { title: "Second" })).id as string
    const site = `${org}/sites/${(yield* made("POST", `${org}/sites`, admin.token, { title: "Acme Site" })).id as string}`
    const siteId = site.split("/").at(-1)!
    const firstSectionId = (yield* made("POST", `${site}/sections`, admin.token, { spaceId })).id as string
    const siteSectionId = (yield* made("POST", `${site}/sections`, admin.token, { spaceId: secondSpaceId })).id as string
    const siteSpaceId = (yield* made("POST", `${site}/site-spaces`, admin.token, { spaceId: secondSpaceId, sectionId: firstSectionId }))
      .id as string
    const siteSectionGroupId = (yield* made("POST", `${site}/section-groups`, admin.token, { title: "More", sections: [siteSectionId] }))
      .id as string
    const shareLinkId = (yield* made("POST", `${site}/share-links`, admin.token, { name: "Preview" })).id as string
    const siteRedirectId = (yield* made("POST", `${site}/redirects`, admin.token, {
      source: "/old",
      destination: { kind: "external", url: "https://example.com/" }
    })).id as string
    // Another, which no request names by id: resolving its source finds it whatever was done to the first.
    yield* made("POST", `${site}/redirects`, admin.token, {
      source: "/resolved",
      destination: { kind: "external", url: "https://example.com/" }
    })
    const samlProviderId = (yield* made("POST", `${org}/saml`, admin.token, {
      label: "Acme IdP",
      entityID: "urn:acme:idp",
      ssoURL: "https://idp.acme.test/sso",
      certificate: samlCertificate
    })).id as string
    const translationSettingsId = (yield* made("POST", `${org}/translations`, admin.token, { title: "Docs", languages: ["fr"] }))
      .id as string
    // A private integration of A's (names are global: one per world), installed in A.
    const integrationName = `acme-${organizationId}`
    yield* made("POST", `/v1/integrations/${integrationName}`, admin.token, matrixIntegration(organizationId))
    const installationId = (yield* made("POST", `/v1/integrations/${integrationName}/installations`, admin.token, {
      organization: organizationId
    })).id as string

    const specVersionId = (yield* made("POST", `${org}/openapi`, admin.token, { slug: "pets", source: { text: matrixSpecText } }))
      .lastVersion as string

    /** What fills each path parameter, by its name in the endpoints' path schemas. */
    const params: Readonly<Record<string, string>> = {
      organizationId,
      userId: target.id,
      teamId,
      inviteId,
      tokenId,
      emailDomain,
      fieldName,
      collectionId,
      spaceId,
      revisionId: revision.id,
      pageId: revision.pages[0].id,
      pagePath: revision.pages[0].path,
      fileId: revision.files[0].id,
      changeRequestId,
      commentId,
      commentReplyId,
      siteId,
      siteSpaceId,
      siteSectionId,
      siteSectionGroupId,
      shareLinkId,
      siteRedirectId,
      secondSpaceId,
      firstSectionId,
      samlProviderId,
      translationSettingsId,
      subdomain: people.otherSubdomain,
      integrationName,
      installationId,
      assetKey: "no-such-asset",
      specSlug: "pets",
      versionId: specVersionId
    }
    return {
      ...people,
      organizationId,
      params,
      /** A's objects reached through B's organization or space, which the outsider administers. */
      crossParams: { ...params, organizationId: otherOrganizationId, spaceId: otherSpaceId } as Readonly<Record<string, string>>
    }
  })

export type MatrixWorld = Effect.Effect.Success<ReturnType<typeof buildMatrixWorld>>
