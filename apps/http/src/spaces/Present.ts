import type {
  CollectionView,
  CustomField,
  CustomFieldValueView,
  PublishedPlace,
  Role,
  SpaceGitSyncInfo,
  SpaceView
} from "@octavo/domain"
import type { CollectionObject, CustomFieldObject, GitSyncStateObject, SpaceObject } from "./Wire.js"

export const presentCollection = (base: string) => ({ collection: c, permissions }: CollectionView): typeof CollectionObject.Type => ({
  object: "collection",
  id: c.id,
  title: c.title,
  ...(c.description !== undefined ? { description: c.description } : {}),
  organization: c.organizationId,
  ...(c.parentId !== null ? { parent: c.parentId } : {}),
  defaultLevel: c.defaultLevel,
  urls: { location: `${base}/v1/collections/${c.id}`, app: `${base}/o/${c.organizationId}/c/${c.id}` },
  permissions
})

/** A site's address for visitors: behind its proxy, else `/sites/<organization>/<site>` of this instance. */
export const siteAddress = (
  base: string,
  place: { readonly proxy: string | null; readonly organization: string; readonly site: string }
): string => (place.proxy !== null ? `https://${place.proxy}` : `${base}/sites/${place.organization}/${place.site}`)

/** A published URL that carries the share key the read was made with. */
export const withShareKey = (url: string, key: string | undefined): string =>
  key === undefined ? url : `${url}?share=${encodeURIComponent(key)}`

/** A published place's URL: the site's address, the site space's path, the share key. */
export const publishedUrl = (base: string, place: PublishedPlace): string =>
  withShareKey([siteAddress(base, place), ...place.path].join("/"), place.shareKey)

/** A space's Git Sync (GitBook's `GitSyncState`); it never held a credential. */
export const presentGitSync = (spaceId: string, info: SpaceGitSyncInfo): GitSyncStateObject => ({
  installationId: `space-${spaceId}`,
  installationStatus: "active",
  ...(info.installationProvider !== undefined ? { installationProvider: info.installationProvider } : {}),
  ...(info.repoName !== undefined ? { repoName: info.repoName } : {}),
  ...(info.url !== undefined ? { url: info.url } : {}),
  updatedAt: info.updatedAt.toISOString(),
  ...(info.operation !== undefined
    ? {
      operation: {
        state: info.operation.state,
        direction: info.operation.direction,
        startedAt: info.operation.startedAt.toISOString(),
        ...(info.operation.endedAt !== undefined ? { endedAt: info.operation.endedAt.toISOString() } : {}),
        ...(info.operation.error !== undefined ? { error: info.operation.error } : {}),
        ...(info.operation.revision !== undefined ? { revision: info.operation.revision } : {}),
        ...(info.operation.commit !== undefined ? { commit: info.operation.commit } : {})
      }
    }
    : {}),
  operationTimeout: info.operationTimeout
})

export const presentSpace =
  (base: string) => ({ counts, gitSync, permissions, published, space: s }: SpaceView): typeof SpaceObject.Type => ({
    object: "space",
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(s.deletedAt !== undefined ? { deletedAt: s.deletedAt } : {}),
    editMode: s.editMode,
    mergeRules: { type: "inherit" },
    urls: {
      location: `${base}/v1/spaces/${s.id}`,
      app: `${base}/o/${s.organizationId}/s/${s.id}`,
      ...(published !== undefined ? { published: publishedUrl(base, published) } : {}),
      ...(s.icon !== undefined ? { icon: s.icon } : {})
    },
    organization: s.organizationId,
    ...(s.parentId !== null ? { parent: s.parentId } : {}),
    revision: s.revisionId,
    defaultLevel: s.defaultLevel,
    ...(gitSync !== undefined ? { gitSync: presentGitSync(s.id, gitSync) } : {}),
    ...counts,
    permissions
  })

/** A space with a member's permission in it. */
export const presentMemberSpace = (base: string) => {
  const space = presentSpace(base)
  return (row: { readonly permission: Role; readonly space: SpaceView }) => ({
    permission: row.permission,
    space: space(row.space)
  })
}

export const presentCustomField = (base: string) => (f: CustomField): typeof CustomFieldObject.Type => ({
  object: "custom-field",
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

/** A space's custom field with its value there, if it has one. */
export const presentCustomFieldValue = (base: string) => {
  const field = presentCustomField(base)
  return (v: CustomFieldValueView) => ({ customField: field(v.customField), ...(v.value !== undefined ? { value: v.value } : {}) })
}
