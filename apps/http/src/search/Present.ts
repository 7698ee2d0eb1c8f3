import type { PageResult, SpaceId, SpaceResult } from "@octavo/domain"
import type { PageResult as PageResultObject, SpaceResult as SpaceResultObject } from "./Wire.js"

/** Search results with their app URLs: a page's, and each section's at its anchor. */
export const searchPresenters = (base: string) => {
  const presentPage = (spaceId: SpaceId) => (page: PageResult): typeof PageResultObject.Type => {
    const app = `${base}/s/${spaceId}/${page.path}`
    return {
      id: page.pageId,
      title: page.title,
      description: page.description,
      path: page.path,
      score: page.score,
      rank: page.rank,
      resultType: page.resultType,
      sections: page.sections.map((section) => {
        const at = section.anchor === "" ? "" : `#${section.anchor}`
        return {
          id: section.id,
          title: section.title,
          path: `${page.path}${at}`,
          score: section.score,
          resultType: section.resultType,
          body: section.body,
          urls: { app: `${app}${at}` }
        }
      }),
      ancestors: page.ancestors.map((ancestor) => ({ id: ancestor.id, title: ancestor.title })),
      urls: { app }
    }
  }

  const presentSpace = (result: SpaceResult): typeof SpaceResultObject.Type => ({
    type: "space",
    id: result.space.id,
    title: result.space.title,
    score: result.score,
    pages: result.pages.map(presentPage(result.space.id)),
    urls: { app: `${base}/s/${result.space.id}` }
  })

  return { presentPage, presentSpace }
}
