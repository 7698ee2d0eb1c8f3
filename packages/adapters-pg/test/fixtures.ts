import type {
  ApiToken,
  Collection,
  CollectionId,
  ContentPage,
  CustomField,
  CustomFieldId,
  File,
  FileId,
  Invite,
  InviteId,
  Member,
  Organization,
  OrganizationId,
  PageId,
  Revision,
  RevisionId,
  Role,
  Space,
  SpaceId,
  Team,
  TeamId,
  TeamMembership,
  TokenId,
  User,
  UserId
} from "@octavo/domain"

// Ids are branded by the domain's schemas; fixtures name them directly.
export const userId = (id: string) => id as UserId
export const organizationId = (id: string) => id as OrganizationId
export const teamId = (id: string) => id as TeamId
export const inviteId = (id: string) => id as InviteId
export const tokenId = (id: string) => id as TokenId
export const collectionId = (id: string) => id as CollectionId
export const spaceId = (id: string) => id as SpaceId
export const revisionId = (id: string) => id as RevisionId
export const customFieldId = (id: string) => id as CustomFieldId
export const pageId = (id: string) => id as PageId
export const fileId = (id: string) => id as FileId

export const user = (id: string, fields: Partial<User> = {}): User => ({
  id: userId(id),
  displayName: `User ${id}`,
  email: `${id.toLowerCase()}@example.com`,
  isInstanceAdmin: false,
  createdAt: new Date(1_700_000_000_000),
  ...fields
})

export const organization = (id: string, fields: Partial<Organization> = {}): Organization => ({
  id: organizationId(id),
  title: `Organization ${id}`,
  createdAt: new Date(1_700_000_000_000),
  emailDomains: [],
  defaultRole: "read",
  sso: false,
  ai: false,
  inviteLinks: false,
  ...fields
})

export const member = (organization: string, user: string, fields: Partial<Member> = {}): Member => ({
  organizationId: organizationId(organization),
  userId: userId(user),
  role: "read",
  joinedAt: new Date(1_700_000_000_000),
  sso: false,
  disabled: false,
  ...fields
})

export const team = (organization: string, id: string, fields: Partial<Team> = {}): Team => ({
  id: teamId(id),
  organizationId: organizationId(organization),
  title: `Team ${id}`,
  createdAt: new Date(1_700_000_000_000),
  ...fields
})

export const membership = (
  organization: string,
  team: string,
  user: string,
  fields: Partial<TeamMembership> = {}
): TeamMembership => ({
  teamId: teamId(team),
  organizationId: organizationId(organization),
  userId: userId(user),
  role: "member",
  addedAt: new Date(1_700_000_000_000),
  ...fields
})

export const invite = (organization: string, id: string, role: Role, createdAt: Date): Invite => ({
  id: inviteId(id),
  organizationId: organizationId(organization),
  role,
  createdAt
})

export const token = (user: string, id: string, hash: string): ApiToken => ({
  id: tokenId(id),
  userId: userId(user),
  label: `token ${id}`,
  hash,
  createdAt: new Date(1_700_000_000_000)
})

export const collection = (organization: string, id: string, fields: Partial<Collection> = {}): Collection => ({
  id: collectionId(id),
  organizationId: organizationId(organization),
  title: `Collection ${id}`,
  parentId: null,
  position: "V",
  defaultLevel: "read",
  createdAt: new Date(1_700_000_000_000),
  updatedAt: new Date(1_700_000_000_000),
  ...fields
})

export const space = (organization: string, id: string, fields: Partial<Space> = {}): Space => ({
  id: spaceId(id),
  organizationId: organizationId(organization),
  parentId: null,
  position: "V",
  title: `Space ${id}`,
  emoji: "",
  visibility: "private",
  editMode: "live",
  defaultLevel: "read",
  revisionId: revisionId(`${id}-r1`),
  createdBy: userId("nobody"),
  createdAt: new Date(1_700_000_000_000),
  updatedAt: new Date(1_700_000_000_000),
  ...fields
})

export const revision = (space: string, id: string, fields: Partial<Revision> = {}): Revision => ({
  id: revisionId(id),
  spaceId: spaceId(space),
  parents: [],
  type: "edits",
  createdAt: new Date(1_700_000_000_000),
  ...fields
})

export const customField = (organization: string, id: string, fields: Partial<CustomField> = {}): CustomField => ({
  id: customFieldId(id),
  organizationId: organizationId(organization),
  name: id.toLowerCase(),
  type: "text",
  createdAt: new Date(1_700_000_000_000),
  updatedAt: new Date(1_700_000_000_000),
  ...fields
})

export const page = (id: string, fields: Partial<ContentPage> = {}): ContentPage => ({
  id: pageId(id),
  kind: "document",
  title: `Page ${id}`,
  slug: id.toLowerCase(),
  parentId: null,
  position: "V",
  markdown: `# Page ${id}`,
  hidden: false,
  noIndex: false,
  noRobotsIndex: false,
  createdAt: new Date(1_700_000_000_000),
  updatedAt: new Date(1_700_000_000_000),
  ...fields
})

export const file = (id: string, fields: Partial<File> = {}): File => ({
  id: fileId(id),
  name: `${id}.png`,
  contentType: "image/png",
  size: 42,
  blobKey: `blob-${id}`,
  createdAt: new Date(1_700_000_000_000),
  ...fields
})

/** A deterministic pseudo-random sequence, so that a failing case can be replayed. */
export const random = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0
    return state / 2 ** 32
  }
}

/** Picks one of the values. */
export const pick = <A>(next: () => number, values: ReadonlyArray<A>): A => values[Math.floor(next() * values.length)]!
