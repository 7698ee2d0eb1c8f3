import { expect } from "@effect/vitest"
import { Effect, Layer } from "effect"
import {
  Actor,
  ChangeRequestCountsFact,
  DomainServices,
  type FactRows,
  GitSyncFact,
  InviteId,
  type Member,
  MemberRepository,
  type Organization,
  OrganizationId,
  OrganizationRepository,
  OpenCommentsFact,
  OutsideNotGiven,
  PublishedPlaceFact,
  type Role,
  rowsOf,
  type Site,
  SiteId,
  Spaces,
  type SpaceView,
  type StoragePorts,
  type Team,
  TeamId,
  TeamRepository,
  type User,
  UserId,
  UserRepository
} from "../../src/index.js"

/** The domain over a storage, with the outside adapters `outside` (fakes) and none of the others (`OutsideNotGiven`). */
export const servicesWith = <A, E>(outside: Layer.Layer<A, E>) => DomainServices.pipe(Layer.provide(Layer.merge(OutsideNotGiven, outside)))

/** The domain over a storage, with no outside adapter. */
export const ContractServices = servicesWith(Layer.empty)
export type Services = typeof ContractServices

let counter = 0
const run = Math.random().toString(36).slice(2, 8)
/** An id no other test of this run uses, so tests can share one storage. */
export const uniqueId = (prefix: string): string => `${prefix}${run}${(counter++).toString().padStart(5, "0")}`

/** A fixed instant plus `minutes`, so orders are known in advance. */
export const at = (minutes: number): Date => new Date(Date.UTC(2026, 0, 1, 0, minutes, 0, 0))

/** A basic, public, unpublished site of the organization, as the sites' repository stores one. */
export const siteOf = (organizationId: OrganizationId, fields: Partial<Site> = {}): Site => ({
  id: SiteId.make(uniqueId("site")),
  organizationId,
  type: "basic",
  title: "Docs",
  visibility: "public",
  published: false,
  basename: null,
  proxy: null,
  adaptiveContent: false,
  defaultSiteSpaceId: null,
  defaultSectionId: null,
  publishingAuth: { privateKey: "k".repeat(43), fallbackURL: null, logoutURL: null },
  adaptiveSchema: null,
  createdAt: at(1),
  updatedAt: at(1),
  ...fields
})

export const makeUser = (fields: Partial<User> = {}) =>
  Effect.gen(function*() {
    const id = UserId.make(uniqueId("u"))
    const user: User = {
      id,
      displayName: `User ${id}`,
      email: `${id.toLowerCase()}@example.com`,
      isInstanceAdmin: false,
      createdAt: at(0),
      ...fields
    }
    yield* (yield* UserRepository).insert(user)
    return user
  })

export const makeOrganization = (fields: Partial<Organization> = {}) =>
  Effect.gen(function*() {
    const organization: Organization = {
      id: OrganizationId.make(uniqueId("o")),
      title: "Acme",
      createdAt: at(0),
      emailDomains: [],
      defaultRole: "read",
      sso: false,
      ai: false,
      inviteLinks: true,
      ...fields
    }
    yield* (yield* OrganizationRepository).insert(organization)
    return organization
  })

export const makeMember = (organization: Organization, user: User, role: Role | null, fields: Partial<Member> = {}) =>
  Effect.gen(function*() {
    const member: Member = {
      organizationId: organization.id,
      userId: user.id,
      role,
      joinedAt: at(0),
      sso: false,
      disabled: false,
      ...fields
    }
    yield* (yield* MemberRepository).insert(member)
    return member
  })

export const makeTeam = (organization: Organization, fields: Partial<Team> = {}) =>
  Effect.gen(function*() {
    const team: Team = {
      id: TeamId.make(uniqueId("t")),
      organizationId: organization.id,
      title: "Team",
      createdAt: at(0),
      ...fields
    }
    yield* (yield* TeamRepository).insert(team)
    return team
  })

export const newInviteId = () => InviteId.make(uniqueId("i"))

/** A new organization with an admin, and a way to run use cases as that admin. */
export const adminOfNewOrganization = Effect.gen(function*() {
  const admin = yield* makeUser()
  const organization = yield* makeOrganization()
  yield* makeMember(organization, admin, "admin")
  return { organization, run: Effect.provideService(Actor, admin) }
})

/** A new organization's admin and an empty space of theirs. */
export const adminWithNewSpace = (title: string) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    const { organization, run } = yield* adminOfNewOrganization
    const { space } = yield* run(spaces.create(organization.id, { title }))
    return { organization, run, space }
  })

/**
 * `read` (a read of several contexts at once, `ReadTogether`) as the storage answers it, checked
 * against the same read answered by `oneByOne`, over the same storage's repositories; `ordered`
 * puts what comes in no particular order in one.
 */
export const sameAsOneByOne = <A, R>(
  read: Effect.Effect<A, never, R>,
  oneByOne: Layer.Layer<R, never, StoragePorts>,
  ordered: (answer: A) => unknown = (answer) => answer
) =>
  Effect.gen(function*() {
    const together = yield* read
    const storage = Layer.succeedContext(yield* Effect.context<StoragePorts>())
    expect(ordered(together)).toEqual(ordered(yield* Effect.provide(read, oneByOne.pipe(Layer.provide(storage)))))
    return together
  })

/** Rows by id: the order a test compares rows that come in no particular order in. */
export const byId = <T extends { readonly id: string }>(rows: ReadonlyArray<T>): Array<T> =>
  [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

const byPair = (a: { readonly siteId: string; readonly spaceId: string }, b: { readonly siteId: string; readonly spaceId: string }) =>
  a.siteId < b.siteId ? -1 : a.siteId > b.siteId ? 1 : a.spaceId < b.spaceId ? -1 : a.spaceId > b.spaceId ? 1 : 0

/** The rows of each fact that views of spaces show, by the fact's name. */
export const factRowsOf = (rows: FactRows) => ({
  changeRequests: rowsOf(ChangeRequestCountsFact, rows),
  openComments: rowsOf(OpenCommentsFact, rows),
  sites: rowsOf(PublishedPlaceFact, rows),
  gitSync: rowsOf(GitSyncFact, rows)
})

/** What a view of a space counts, as GitBook's `Space` shows it (none counted: 0). */
export const countsOf = ({ facts, space }: SpaceView) => {
  const changeRequests = facts.of(ChangeRequestCountsFact, space.id)
  return {
    comments: facts.of(OpenCommentsFact, space.id) ?? 0,
    changeRequests: changeRequests?.total ?? 0,
    changeRequestsOpen: changeRequests?.open ?? 0,
    changeRequestsDraft: changeRequests?.draft ?? 0
  }
}

/** Where a view of a space shows it published, if anywhere. */
export const publishedOf = ({ facts, space }: SpaceView) => facts.of(PublishedPlaceFact, space.id)

/** The Git Sync a view of a space shows, if any. */
export const gitSyncOf = ({ facts, space }: SpaceView) => facts.of(GitSyncFact, space.id)

/** `SpaceFactRows`' rows with what comes in no particular order put in one, to compare two reads. */
export const orderedFactRows = (read: FactRows) => {
  const rows = factRowsOf(read)
  return ({
    ...rows,
    changeRequests: new Map([...rows.changeRequests].sort(([a], [b]) => (a < b ? -1 : 1))),
    openComments: new Map([...rows.openComments].sort(([a], [b]) => (a < b ? -1 : 1))),
    gitSync: [...rows.gitSync].sort((a, b) => (a.spaceId < b.spaceId ? -1 : 1)),
    sites: {
      siteSpaces: [...rows.sites.siteSpaces].sort(byPair),
      sites: byId(rows.sites.sites),
      structures: new Map(
        [...rows.sites.structures].sort(([a], [b]) => (a < b ? -1 : 1)).map((
          [id, tree]
        ) => [id, { sections: byId(tree.sections), groups: byId(tree.groups), siteSpaces: byId(tree.siteSpaces) }])
      ),
      structureSpaces: byId(rows.sites.structureSpaces)
    }
  })
}
