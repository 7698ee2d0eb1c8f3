import { Effect } from "effect"
import { NotFound } from "../shared/Errors.js"
import type { PageId } from "../shared/Ids.js"
import { type PageNode, pageTree } from "./Changes.js"
import type { RevisionContent } from "./Page.js"

/** The page `pageId` of a revision's content with its path and the pages below it; NotFound when the revision has no such page. */
export const pageIn = (content: RevisionContent, pageId: PageId): Effect.Effect<PageNode, NotFound> => {
  const find = (nodes: ReadonlyArray<PageNode>): PageNode | undefined => {
    for (const node of nodes) {
      if (node.page.id === pageId) return node
      const below = find(node.pages)
      if (below !== undefined) return below
    }
    return undefined
  }
  const node = find(pageTree(content))
  return node === undefined ? Effect.fail(new NotFound({ entity: "page", id: pageId })) : Effect.succeed(node)
}
