import { Effect } from "effect"
import { InvalidInput } from "../shared/Errors.js"
import type { SiteId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { adaptiveSchemaProblem, defaultAdaptiveSchema } from "./AdaptiveSchema.js"
import { AdaptiveSchemaInput, type Site, UpdatePublishingAuthInput } from "./Site.js"
import { makeSiteWork, SIGNING_SECRET_BYTES } from "./SiteWork.js"
import * as Structure from "./Structure.js"
import { groupView, type PublishedStructure, type PublishingAuthView, sectionView, siteSpaceView } from "./Views.js"

/**
 * What a site shows its readers and how they sign in (endpoints of the API's `sites` group): its
 * published structure, its adaptive schema and its publishing auth.
 */
export class SitePublishing extends Effect.Service<SitePublishing>()("@octavo/domain/SitePublishing", {
  effect: Effect.gen(function*() {
    const secrets = yield* Secrets
    const { authorized, change, readSite } = yield* makeSiteWork

    // The published view.

    const published = (siteId: SiteId, shareKey?: string) =>
      Effect.gen(function*() {
        const { shown, view } = yield* readSite(siteId, shareKey)
        const structure: PublishedStructure = Structure.hasSections(shown.tree)
          ? {
            type: "sections",
            items: Structure.rootItems(shown.tree).map((item) =>
              item.kind === "section"
                ? { section: sectionView(shown, shown.tree.sections.find((s) => s.id === item.id)!) }
                : { group: groupView(shown, shown.tree.groups.find((g) => g.id === item.id)!) }
            )
          }
          : { type: "siteSpaces", items: Structure.siteSpacesIn(shown.tree, null).map((s) => siteSpaceView(shown, s)) }
        return { site: view, structure }
      })

    // The adaptive schema.

    const adaptiveSchema = (siteId: SiteId) =>
      Effect.map(authorized(siteId, "read", "read this site's adaptive schema"), ({ site }) => ({
        jsonSchema: site.adaptiveSchema?.jsonSchema ?? defaultAdaptiveSchema,
        updatedAt: site.adaptiveSchema?.updatedAt ?? site.createdAt
      }))

    const setAdaptiveSchema = (siteId: SiteId, input: { readonly jsonSchema: unknown }) =>
      Effect.gen(function*() {
        const valid = yield* validate(AdaptiveSchemaInput)(input)
        const problem = adaptiveSchemaProblem(valid.jsonSchema)
        if (problem !== undefined) return yield* new InvalidInput({ field: `jsonSchema${problem.pointer}`, rule: problem.rule })
        const at = yield* now
        const { tree } = yield* change(siteId, "admin", "change this site's adaptive schema", (tree) =>
          Effect.succeed({
            tree: { ...tree, site: { ...tree.site, adaptiveSchema: { jsonSchema: valid.jsonSchema, updatedAt: at }, updatedAt: at } },
            result: undefined
          }))
        return { jsonSchema: valid.jsonSchema, updatedAt: tree.site.adaptiveSchema?.updatedAt ?? at }
      })

    // Publishing auth.

    const publishingAuth = (siteId: SiteId) =>
      Effect.map(authorized(siteId, "admin", "read this site's publishing auth"), ({ site }): PublishingAuthView => site.publishingAuth)

    const changeAuth = (siteId: SiteId, action: string, f: (auth: Site["publishingAuth"]) => Effect.Effect<Site["publishingAuth"]>) =>
      Effect.gen(function*() {
        const at = yield* now
        const { tree } = yield* change(
          siteId,
          "admin",
          action,
          (tree) =>
            Effect.map(
              f(tree.site.publishingAuth),
              (publishingAuth) => ({ tree: { ...tree, site: { ...tree.site, publishingAuth, updatedAt: at } }, result: undefined })
            )
        )
        return tree.site.publishingAuth as PublishingAuthView
      })

    const updatePublishingAuth = (siteId: SiteId, input: UpdatePublishingAuthInput) =>
      Effect.flatMap(
        validate(UpdatePublishingAuthInput)(input),
        (valid) =>
          changeAuth(siteId, "change this site's publishing auth", (auth) =>
            Effect.succeed({
              ...auth,
              fallbackURL: valid.fallbackURL === undefined ? auth.fallbackURL : valid.fallbackURL,
              logoutURL: valid.logoutURL === undefined ? auth.logoutURL : valid.logoutURL
            }))
      )

    /** A new secret: every visitor token signed with the old one stops working. */
    const regeneratePublishingAuth = (siteId: SiteId) =>
      changeAuth(
        siteId,
        "regenerate this site's publishing auth",
        (auth) => Effect.map(secrets.newSecret(SIGNING_SECRET_BYTES), (privateKey) => ({ ...auth, privateKey }))
      )

    return {
      published,
      adaptiveSchema,
      setAdaptiveSchema,
      publishingAuth,
      updatePublishingAuth,
      regeneratePublishingAuth
    } as const
  })
}) {}
