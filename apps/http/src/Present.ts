import { HttpApp, HttpServerResponse } from "@effect/platform"
import {
  type CollectionView,
  type CustomField,
  type DomainError,
  encodeCursor,
  type Invite,
  type MemberView,
  type OrganizationView,
  type Page,
  type PageRequest,
  pageRequest,
  type SpaceView,
  type TeamWithCount,
  type User
} from "@octavo/domain"
import { Context, Effect, Option } from "effect"
import { type ApiError, toApiError } from "./api/Errors.js"

/** The public base URL every `urls.*` starts with. */
export class PublicUrl extends Context.Tag("@octavo/http/PublicUrl")<PublicUrl, string>() {}

/** Runs a use case, turning its domain errors into the API's error answers. */
export const domain = <A, R>(effect: Effect.Effect<A, DomainError, R>): Effect.Effect<A, ApiError, R> =>
  Effect.mapError(effect, toApiError)

/** Answers 201 with the new object's location in the `Location` header. */
export const created = <A>(location: string, value: A): Effect.Effect<A> =>
  Effect.as(
    HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, "location", location))),
    value
  )

/** A list answer: the page's items, the total count, and the next page's token when there is one. */
export const listOf = <A, B, R>(
  list: string,
  query: { readonly limit?: number | undefined; readonly page?: string | undefined },
  fetch: (request: PageRequest) => Effect.Effect<Page<A>, DomainError, R>,
  present: (item: A) => B
) =>
  domain(Effect.gen(function*() {
    const request = yield* pageRequest(list, query)
    const page = yield* fetch(request)
    return {
      items: page.items.map(present),
      count: page.count,
      ...Option.match(page.next, {
        onNone: () => ({}),
        onSome: (keyset) => ({ next: { page: encodeCursor(list, keyset) } })
      })
    }
  }))

export const presentUser = (base: string) => (user: User) => ({
  object: "user" as const,
  id: user.id,
  displayName: user.displayName,
  email: user.email,
  ...(user.photoURL !== undefined ? { photoURL: user.photoURL } : {}),
  urls: { location: `${base}/v1/users/${user.id}` }
})

export const organizationLocation = (base: string, id: string) => `${base}/v1/orgs/${id}`

export const presentOrganization = (base: string) => ({ organization: o, permissions }: OrganizationView) => ({
  object: "organization" as const,
  id: o.id,
  title: o.title,
  createdAt: o.createdAt,
  emailDomains: o.emailDomains,
  ...(o.hostname !== undefined ? { hostname: o.hostname } : {}),
  type: "business" as const,
  defaultRole: o.defaultRole,
  ...(o.defaultContent !== undefined ? { defaultContent: o.defaultContent } : {}),
  sso: o.sso,
  ai: o.ai,
  inviteLinks: o.inviteLinks,
  plan: "free_2024",
  urls: {
    location: organizationLocation(base, o.id),
    app: `${base}/o/${o.id}`,
    ...(o.logo !== undefined ? { logo: o.logo } : {})
  },
  trial: { status: "notapplicable" },
  permissions
})

export const presentMember = (base: string) => ({ member, teams, user }: MemberView) => ({
  object: "member" as const,
  id: member.userId,
  role: member.role,
  user: presentUser(base)(user),
  disabled: member.disabled,
  joinedAt: member.joinedAt,
  ...(member.lastSeenAt !== undefined ? { lastSeenAt: member.lastSeenAt } : {}),
  sso: member.sso,
  // Spaces arrive with the spaces slice; until then a member has none.
  spaces: 0,
  teams
})

export const presentTeam = ({ members, team }: TeamWithCount) => ({
  object: "team" as const,
  id: team.id,
  title: team.title,
  members,
  spaces: 0,
  createdAt: team.createdAt
})

export const presentInvite = (invite: Invite) => ({ object: "invite" as const, id: invite.id, role: invite.role })

export const presentCollection = (base: string) => ({ collection: c, permissions }: CollectionView) => ({
  object: "collection" as const,
  id: c.id,
  title: c.title,
  ...(c.description !== undefined ? { description: c.description } : {}),
  organization: c.organizationId,
  ...(c.parentId !== null ? { parent: c.parentId } : {}),
  defaultLevel: c.defaultLevel,
  urls: { location: `${base}/v1/collections/${c.id}`, app: `${base}/o/${c.organizationId}/c/${c.id}` },
  permissions
})

export const presentSpace = (base: string) => ({ counts, permissions, space: s }: SpaceView) => ({
  object: "space" as const,
  id: s.id,
  title: s.title,
  emoji: s.emoji,
  visibility: s.visibility,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  ...(s.deletedAt !== undefined ? { deletedAt: s.deletedAt } : {}),
  editMode: s.editMode,
  urls: { location: `${base}/v1/spaces/${s.id}`, app: `${base}/o/${s.organizationId}/s/${s.id}` },
  organization: s.organizationId,
  ...(s.parentId !== null ? { parent: s.parentId } : {}),
  revision: s.revisionId,
  defaultLevel: s.defaultLevel,
  ...counts,
  permissions
})

export const presentCustomField = (base: string) => (f: CustomField) => ({
  object: "custom-field" as const,
  id: f.id,
  name: f.name,
  type: f.type,
  ...(f.title !== undefined ? { title: f.title } : {}),
  ...(f.description !== undefined ? { description: f.description } : {}),
  ...(f.placeholder !== undefined ? { placeholder: f.placeholder } : {}),
  ...(f.options !== undefined ? { options: f.options } : {}),
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
  urls: { location: `${base}/v1/orgs/${f.organizationId}/custom-fields/${f.name}` }
})
