import { Effect, Option } from "effect"
import { NotFound } from "../shared/Errors.js"
import { ShareLinkId, type SiteId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { ShareLinkRepository } from "./Ports.js"
import { CreateShareLinkInput, type ShareLink, UpdateShareLinkInput } from "./Site.js"
import { makeSiteWork } from "./SiteWork.js"
import type { SitePage } from "./Views.js"

const SHARE_KEY_LENGTH = 32

/** Share links, the API's `shareLinks` group: keys that open a site to whoever holds one; its admins manage them. */
export class ShareLinks extends Effect.Service<ShareLinks>()("@octavo/domain/ShareLinks", {
  effect: Effect.gen(function*() {
    const shareLinks = yield* ShareLinkRepository
    const secrets = yield* Secrets
    const { authorized, newId, readSite } = yield* makeSiteWork

    const listShareLinks = (siteId: SiteId, search: string | undefined, request: PageRequest) =>
      Effect.gen(function*() {
        const { view } = yield* readSite(siteId, undefined, "admin", "read this site's share links")
        return { site: view, ...(yield* shareLinks.list(siteId, search, request)) } satisfies SitePage<ShareLink>
      })

    const shareLinkOf = (siteId: SiteId, id: ShareLinkId) =>
      Effect.flatMap(shareLinks.findById(id), (found) =>
        Option.isSome(found) && found.value.siteId === siteId
          ? Effect.succeed(found.value)
          : Effect.fail(new NotFound({ entity: "share link", id })))

    const adminView = (siteId: SiteId, action: string) =>
      Effect.flatMap(
        authorized(siteId, "admin", action),
        ({ access, site }) => Effect.map(readSite(siteId, undefined), ({ view }) => ({ access, site, view }))
      )

    const createShareLink = (siteId: SiteId, input: { readonly name: string }) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateShareLinkInput)(input)
        const { view } = yield* adminView(siteId, "create share links of this site")
        const link: ShareLink = {
          id: ShareLinkId.make(yield* newId),
          siteId,
          name: valid.name,
          key: yield* secrets.newKey(SHARE_KEY_LENGTH),
          active: true,
          createdAt: yield* now
        }
        yield* shareLinks.insert(link)
        return { site: view, link }
      })

    const updateShareLink = (siteId: SiteId, id: ShareLinkId, input: UpdateShareLinkInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateShareLinkInput)(input)
        const { view } = yield* adminView(siteId, "change share links of this site")
        const link = yield* shareLinkOf(siteId, id)
        const updated: ShareLink = { ...link, name: valid.name ?? link.name, active: valid.active ?? link.active }
        yield* shareLinks.update(updated)
        return { site: view, link: updated }
      })

    const removeShareLink = (siteId: SiteId, id: ShareLinkId) =>
      Effect.gen(function*() {
        yield* authorized(siteId, "admin", "delete share links of this site")
        yield* shareLinkOf(siteId, id)
        yield* shareLinks.remove(id)
      })

    return { listShareLinks, createShareLink, updateShareLink, removeShareLink } as const
  })
}) {}
