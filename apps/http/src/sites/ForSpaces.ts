import { type PublishedPlace, PublishedPlaceFact } from "@octavo/domain"
import type { SpaceFields } from "../spaces/Present.js"

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

/** A space's `urls.published`, while a published site shows it. */
export const publishedFields: SpaceFields = (base, { facts, space }) => {
  const place = facts.of(PublishedPlaceFact, space.id)
  return place === undefined ? {} : { urls: { published: publishedUrl(base, place) } }
}
