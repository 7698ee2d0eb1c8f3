import type { InstallationView, IntegrationView } from "@octavo/domain"
import { presentOrganization } from "../organizations/Present.js"
import type { InstallationObject, IntegrationObject } from "./Wire.js"

export const integrationLocation = (base: string, name: string) => `${base}/v1/integrations/${name}`

/** Where an integration's images are served, by their keys. */
export const assetsLocation = (base: string, name: string) => `${integrationLocation(base, name)}/assets`

export const presentIntegration =
  (base: string) => ({ integration: i, owner, permissions }: IntegrationView): typeof IntegrationObject.Type => {
    const location = integrationLocation(base, i.name)
    const assets = assetsLocation(base, i.name)
    // No route answers it: there is no script runtime in this wave (conventions-2.md §7).
    const publicEndpoint = `${location}/public`
    return {
      object: "integration",
      name: i.name,
      version: i.version,
      title: i.title,
      description: i.description,
      ...(i.summary !== undefined ? { summary: i.summary } : {}),
      previewImages: i.previewImages.map((image) => `${assets}/${image.key}`),
      target: i.target,
      verified: false,
      visibility: i.visibility,
      scopes: i.scopes,
      categories: i.categories,
      blocks: i.blocks,
      contentSources: i.contentSources,
      ...(i.configurations !== undefined ? { configurations: i.configurations } : {}),
      externalLinks: i.externalLinks,
      owner: presentOrganization(base)(owner),
      urls: {
        location,
        ...(i.icon !== undefined ? { icon: `${assets}/${i.icon.key}` } : {}),
        app: `${base}/integrations/${i.name}`,
        assets,
        publicEndpoint,
        publicContentEndpoint: publicEndpoint
      },
      permissions,
      ...(i.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: i.contentSecurityPolicy } : {})
    }
  }

export const presentInstallation = (base: string) => ({ installation: n, status }: InstallationView): typeof InstallationObject.Type => {
  const location = `${integrationLocation(base, n.integrationName)}/installations/${n.id}`
  return {
    id: n.id,
    status,
    space_selection: n.spaceSelection,
    site_selection: n.siteSelection,
    spaces: 0,
    configuration: n.configuration,
    externalIds: n.externalIds,
    target: { organization: n.organizationId },
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
    urls: {
      location,
      app: `${base}/o/${n.organizationId}/integrations/${n.integrationName}`,
      publicEndpoint: `${location}/public`,
      publicContentEndpoint: `${location}/public`
    }
  }
}
