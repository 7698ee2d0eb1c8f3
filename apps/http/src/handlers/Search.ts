import { HttpApiBuilder } from "@effect/platform"
import { type PageResult, Search, type SpaceId, type SpaceResult } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { listOf, PublicUrl } from "../Present.js"

export const SearchLive = HttpApiBuilder.group(OctavoApi, "search", (handlers) =>
  Effect.gen(function*() {
    const search = yield* Search
    const base = yield* PublicUrl

    const presentPage = (spaceId: SpaceId) => (page: PageResult) => {
      const app = `${base}/s/${spaceId}/${page.path}`
      return {
        id: page.pageId,
        title: page.title,
        path: page.path,
        sections: page.sections.map((section) => {
          const at = section.anchor === "" ? "" : `#${section.anchor}`
          return { id: section.id, title: section.title, path: `${page.path}${at}`, body: section.body, urls: { app: `${app}${at}` } }
        }),
        urls: { app }
      }
    }

    const presentSpace = (result: SpaceResult) => ({
      id: result.space.id,
      title: result.space.title,
      pages: result.pages.map(presentPage(result.space.id)),
      urls: { app: `${base}/s/${result.space.id}` }
    })

    return handlers
      .handle("space", ({ path, urlParams }) =>
        listOf(`space-search:${path.spaceId}:${JSON.stringify(urlParams.query)}@key`, urlParams, (page) =>
          search.inSpace(path.spaceId, urlParams, page), presentPage(path.spaceId)))
      .handle("organization", ({ path, urlParams }) =>
        // The query is quoted so that no query can make the list name end in "@key".
        listOf(`organization-search:${path.organizationId}:${JSON.stringify(urlParams.query)}`, urlParams, (page) =>
          search.inOrganization(path.organizationId, urlParams, page), presentSpace))
  })
)
