import type {
  GroupView,
  Localized,
  PublishedStructure,
  PublishingAuthView,
  RedirectTarget,
  SectionView,
  ShareLink,
  SiteRedirect,
  SiteSpaceView,
  SiteView
} from "@octavo/domain"
import { presentSpace, type SpaceFields } from "../spaces/Present.js"
import { siteAddress, withShareKey } from "./ForSpaces.js"
import type {
  AdaptiveSchemaObject,
  PublishedContentSiteObject,
  PublishingAuthObject,
  ShareLinkObject,
  SiteObject,
  SiteRedirectObject,
  SiteSectionGroupObject,
  SiteSectionObject,
  SiteSpaceObject,
  SiteStructureObject
} from "./Wire.js"

/** The features Octavo implements (conventions-2.md §1), GitBook's `SiteFeatureKey`s. */
const FEATURES = [
  "sites-sections",
  "sites-share-links",
  "sites-visitor-authentication",
  "sites-adaptive-content",
  "sites-public-visibility",
  "sites-unlisted-visibility",
  "sites-custom-subdirectory",
  "sites-page-traffic-insights",
  "sites-visitors"
] as const

/** A localized text's field, only when it has a language: GitBook leaves the field out when it has none. */
const localized = <K extends string>(field: K, texts: Localized): { readonly [k in K]?: Localized } =>
  Object.keys(texts).length === 0 ? {} : ({ [field]: texts } as { readonly [k in K]: Localized })

const themed = (color: string) => ({ light: color, dark: color })

/**
 * The published site's customization (conventions-2.md §1.5): GitBook's names with the defaults of
 * `@gitbook/colors`. The keys §1.5 does not name are those GitBook's schema requires, at its defaults.
 */
const customization = (title: string) => ({
  title,
  styling: {
    theme: "clean",
    primaryColor: themed("#346DDB"),
    tint: { color: themed("#787878") },
    infoColor: themed("#787878"),
    successColor: themed("#00C950"),
    warningColor: themed("#FE9A00"),
    dangerColor: themed("#FB2C36"),
    corners: "rounded",
    links: "default",
    font: "Inter",
    icons: "regular",
    sidebar: { background: "default", list: "default" },
    search: "prominent",
    depth: "subtle",
    monospaceFont: "IBMPlexMono",
    codeTheme: {
      default: { light: "default-light", dark: "default-dark" },
      openapi: { light: "default-light", dark: "default-dark" }
    },
    background: "plain"
  },
  internationalization: { locale: "en" },
  favicon: {},
  header: { preset: "default", links: [] },
  footer: { groups: [] },
  themes: { default: "system", toggeable: true },
  pdf: { enabled: false },
  feedback: { enabled: false },
  aiSearch: { enabled: false },
  ai: { enabled: false, mode: "none" },
  advancedCustomization: { enabled: false },
  trademark: { enabled: false },
  externalLinks: { target: "self" },
  pagination: { enabled: true },
  pageActions: { items: [] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true }
})

/** Wire shapes of sites and what is under them, with absolute URLs from `base`. */
export const sitePresenters = (base: string, spaceFields: ReadonlyArray<SpaceFields>) => {
  const space = presentSpace(base, spaceFields)

  const siteLocation = (organizationId: string, siteId: string) => `${base}/v1/orgs/${organizationId}/sites/${siteId}`
  /** Where the instance serves the site itself: what a proxy forwards to. */
  const nativeUrl = ({ location }: SiteView) => siteAddress(base, { ...location, proxy: null })
  /** The site's URL for visitors, published or not. */
  const siteUrl = (view: SiteView) => siteAddress(base, view.location)
  const withShare = withShareKey

  /** A published URL under the site, only while it is published, with the share key the read was made with. */
  const publishedAt = (view: SiteView, path: ReadonlyArray<string>): { readonly published?: string } =>
    view.location.published
      ? { published: withShare([siteUrl(view), ...path].join("/"), view.shareKey) }
      : {}

  const presentSite = (view: SiteView): typeof SiteObject.Type => {
    const { site } = view
    const location = siteLocation(site.organizationId, site.id)
    return {
      object: "site",
      id: site.id,
      type: site.type,
      appliedType: site.type,
      title: site.title,
      ...(site.basename !== null ? { basename: site.basename } : {}),
      ...(site.proxy !== null ? { proxy: { origin: site.proxy, target: nativeUrl(view) } } : {}),
      visibility: site.visibility,
      defaultLevel: "inherit",
      permissions: view.permissions,
      published: site.published,
      siteSpaces: view.siteSpaceCount,
      createdAt: site.createdAt,
      adaptiveContent: { enabled: site.adaptiveContent },
      features: FEATURES.map((id) => ({ id, plan: site.type, frozen: false })),
      urls: {
        location,
        app: `${base}/o/${site.organizationId}/sites/${site.id}`,
        preview: `${location}/published`,
        ...publishedAt(view, [])
      }
    }
  }

  const presentSiteSpace = (site: SiteView) => (view: SiteSpaceView): typeof SiteSpaceObject.Type => {
    const s = view.siteSpace
    return {
      object: "site-space",
      id: s.id,
      path: s.path,
      ...(s.sectionId !== null ? { section: s.sectionId } : {}),
      space: space(view.space),
      title: view.space.space.title,
      ...localized("localizedTitle", s.localizedTitle),
      default: view.default,
      ...(s.condition !== null ? { condition: s.condition } : {}),
      draft: false,
      hidden: s.hidden,
      urls: publishedAt(site, view.path)
    }
  }

  const presentSection = (site: SiteView) => (view: SectionView): typeof SiteSectionObject.Type => {
    const s = view.section
    return {
      object: "site-section",
      id: s.id,
      title: s.title,
      ...localized("localizedTitle", s.localizedTitle),
      ...(s.description !== null ? { description: s.description } : {}),
      ...localized("localizedDescription", s.localizedDescription),
      ...(s.icon !== null ? { icon: s.icon } : {}),
      default: view.default,
      draft: false,
      path: s.path,
      ...(s.condition !== null ? { condition: s.condition } : {}),
      ...(s.groupId !== null ? { sectionGroup: s.groupId } : {}),
      siteSpaces: view.siteSpaces.map(presentSiteSpace(site)),
      urls: publishedAt(site, view.path)
    }
  }

  const presentGroup = (site: SiteView) => (view: GroupView): typeof SiteSectionGroupObject.Type => {
    const sections = view.sections.map(presentSection(site))
    return {
      object: "site-section-group",
      id: view.group.id,
      title: view.group.title,
      ...localized("localizedTitle", view.group.localizedTitle),
      ...(view.group.icon !== null ? { icon: view.group.icon } : {}),
      draft: false,
      sections,
      children: sections
    }
  }

  const presentStructure = (site: SiteView, structure: PublishedStructure): typeof SiteStructureObject.Type =>
    structure.type === "siteSpaces"
      ? { type: "siteSpaces", structure: structure.items.map(presentSiteSpace(site)) }
      : {
        type: "sections",
        structure: structure.items.map((item) => ("section" in item ? presentSection(site)(item.section) : presentGroup(site)(item.group)))
      }

  const presentPublished = (
    { site, structure }: { readonly site: SiteView; readonly structure: PublishedStructure }
  ): typeof PublishedContentSiteObject.Type => ({
    object: "published-content-site",
    site: presentSite(site),
    structure: presentStructure(site, structure),
    customizations: { site: customization(site.site.title), siteSpaces: {} },
    scripts: []
  })

  const shareLinkLocation = (site: SiteView, id: string) => `${siteLocation(site.site.organizationId, site.site.id)}/share-links/${id}`

  const presentShareLink = (site: SiteView) => (link: ShareLink): typeof ShareLinkObject.Type => ({
    object: "share-link",
    id: link.id,
    name: link.name,
    active: link.active,
    createdAt: link.createdAt,
    urls: { location: shareLinkLocation(site, link.id), published: withShare(siteUrl(site), link.key) }
  })

  const presentRedirect = (redirect: SiteRedirect): typeof SiteRedirectObject.Type => ({
    object: "site-redirect",
    id: redirect.id,
    source: redirect.source,
    draft: redirect.draft,
    captureWildcard: redirect.captureWildcard,
    permanent: redirect.permanent,
    destination: redirect.destination,
    createdAt: redirect.createdAt,
    ...(redirect.updatedAt !== null ? { updatedAt: redirect.updatedAt } : {})
  })

  /** Where a redirect leads, as a URL: elsewhere, or under the site's address for visitors (with the read's share key). */
  const targetUrl = (site: SiteView, target: RedirectTarget): string =>
    target.kind === "url"
      ? target.url
      : withShare([siteUrl(site), ...target.segments.map(encodeURIComponent)].join("/"), site.shareKey)

  const presentPublishingAuth = (auth: PublishingAuthView): typeof PublishingAuthObject.Type => ({
    object: "publishing-auth",
    backend: "custom",
    privateKey: auth.privateKey,
    ...(auth.fallbackURL !== null ? { fallbackURL: auth.fallbackURL } : {}),
    ...(auth.logoutURL !== null ? { logoutURL: auth.logoutURL } : {})
  })

  const presentAdaptiveSchema = (schema: { readonly jsonSchema: unknown; readonly updatedAt: Date }): typeof AdaptiveSchemaObject.Type => ({
    object: "site-adaptive-schema",
    jsonSchema: schema.jsonSchema,
    updatedAt: schema.updatedAt
  })

  /** The API URLs of objects GitBook gives no `urls.location`: the `Location` of their creation. */
  const locations = {
    siteSpace: (site: SiteView, id: string) => `${siteLocation(site.site.organizationId, site.site.id)}/site-spaces/${id}`,
    section: (site: SiteView, id: string) => `${siteLocation(site.site.organizationId, site.site.id)}/sections/${id}`,
    group: (site: SiteView, id: string) => `${siteLocation(site.site.organizationId, site.site.id)}/section-groups/${id}`,
    redirect: (place: { readonly organizationId: string; readonly siteId: string }, id: string) =>
      `${siteLocation(place.organizationId, place.siteId)}/redirects/${id}`
  }

  return {
    presentSite,
    presentSiteSpace,
    presentSection,
    presentGroup,
    presentStructure,
    presentPublished,
    presentShareLink,
    presentRedirect,
    targetUrl,
    presentPublishingAuth,
    presentAdaptiveSchema,
    locations
  }
}
