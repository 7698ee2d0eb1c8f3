import type { PageId } from "../shared/Ids.js"
import type { ContentPage } from "./Page.js"
import { byPosition } from "./Resolve.js"

/** One parent's pages: in siblings' order once asked for, and how many of them hold each slug. */
interface Family {
  readonly children: Array<ContentPage>
  sorted: boolean
  readonly slugs: Map<string, number>
}

/**
 * A revision's pages as a batch of changes leaves them, with each parent's pages indexed (issue 38): every change asks
 * where a page goes among its siblings and whether a slug is free there, which a scan of all the pages answered in
 * time quadratic in a space's size. The index is built on the first question, and `set` and `remove` keep it in step.
 */
export interface SiblingPages {
  readonly pages: ReadonlyMap<PageId, ContentPage>
  /** Adds a page, or replaces the one with its id. */
  readonly set: (page: ContentPage) => void
  readonly remove: (id: PageId) => void
  /** How many pages `parentId` (null: the top level) holds, `except` left out. */
  readonly countUnder: (parentId: PageId | null, except?: PageId) => number
  /** The page at `index` among `parentId`'s pages in siblings' order, `except` left out. */
  readonly childAt: (parentId: PageId | null, index: number, except?: PageId) => ContentPage | undefined
  /** Whether a page under `parentId` other than `except` has `slug`. */
  readonly slugTaken: (parentId: PageId | null, slug: string, except?: PageId) => boolean
  /** Whether a page under `parentId` other than `except` has the order key `position`. */
  readonly positionTaken: (parentId: PageId | null, position: string, except?: PageId) => boolean
  /** The page and every page below it, in the order `pages` holds them. */
  readonly subtreeOf: (id: PageId) => ReadonlyArray<PageId>
}

/** Where `page` is, or would go, among pages in siblings' order. */
const placeOf = (children: ReadonlyArray<ContentPage>, page: ContentPage): number => {
  let low = 0
  let high = children.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (byPosition(children[middle] as ContentPage, page) < 0) low = middle + 1
    else high = middle
  }
  return low
}

export const makeSiblingPages = (initial: ReadonlyMap<PageId, ContentPage>): SiblingPages => {
  const pages = new Map(initial)
  let families: Map<PageId | null, Family> | undefined

  const familyOf = (index: Map<PageId | null, Family>, parentId: PageId | null): Family => {
    let family = index.get(parentId)
    if (family === undefined) {
      family = { children: [], sorted: true, slugs: new Map() }
      index.set(parentId, family)
    }
    return family
  }

  const join = (index: Map<PageId | null, Family>, page: ContentPage) => {
    const family = familyOf(index, page.parentId)
    if (family.sorted) family.children.splice(placeOf(family.children, page), 0, page)
    else family.children.push(page)
    family.slugs.set(page.slug, (family.slugs.get(page.slug) ?? 0) + 1)
  }

  const leave = (index: Map<PageId | null, Family>, page: ContentPage) => {
    const family = familyOf(index, page.parentId)
    const at = family.sorted ? placeOf(family.children, page) : family.children.findIndex((p) => p.id === page.id)
    family.children.splice(at, 1)
    const count = (family.slugs.get(page.slug) ?? 0) - 1
    if (count > 0) family.slugs.set(page.slug, count)
    else family.slugs.delete(page.slug)
  }

  const indexed = (): Map<PageId | null, Family> => {
    if (families === undefined) {
      families = new Map()
      for (const page of pages.values()) {
        const family = familyOf(families, page.parentId)
        family.children.push(page)
        family.sorted = family.children.length === 1
        family.slugs.set(page.slug, (family.slugs.get(page.slug) ?? 0) + 1)
      }
    }
    return families
  }

  /** `parentId`'s pages in siblings' order, and where `except` sits among them (-1: not there). */
  const siblings = (parentId: PageId | null, except: PageId | undefined) => {
    const family = indexed().get(parentId)
    if (family === undefined) return { children: [], skipped: -1 }
    if (!family.sorted) {
      family.children.sort(byPosition)
      family.sorted = true
    }
    const self = except === undefined ? undefined : pages.get(except)
    const skipped = self !== undefined && self.parentId === parentId ? placeOf(family.children, self) : -1
    return { children: family.children, skipped }
  }

  const set = (page: ContentPage) => {
    const previous = pages.get(page.id)
    pages.set(page.id, page)
    if (families === undefined) return
    if (previous !== undefined) leave(families, previous)
    join(families, page)
  }

  const remove = (id: PageId) => {
    const previous = pages.get(id)
    pages.delete(id)
    if (families !== undefined && previous !== undefined) leave(families, previous)
  }

  const countUnder = (parentId: PageId | null, except?: PageId) => {
    const { children, skipped } = siblings(parentId, except)
    return children.length - (skipped === -1 ? 0 : 1)
  }

  const childAt = (parentId: PageId | null, index: number, except?: PageId) => {
    if (index < 0) return undefined
    const { children, skipped } = siblings(parentId, except)
    return children[skipped !== -1 && index >= skipped ? index + 1 : index]
  }

  const slugTaken = (parentId: PageId | null, slug: string, except?: PageId) => {
    const holders = indexed().get(parentId)?.slugs.get(slug) ?? 0
    const self = except === undefined ? undefined : pages.get(except)
    return holders - (self !== undefined && self.parentId === parentId && self.slug === slug ? 1 : 0) > 0
  }

  const positionTaken = (parentId: PageId | null, position: string, except?: PageId) => {
    const { children } = siblings(parentId, undefined)
    let low = 0
    let high = children.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((children[middle] as ContentPage).position < position) low = middle + 1
      else high = middle
    }
    for (let at = low; at < children.length && children[at]?.position === position; at++) {
      if (children[at]?.id !== except) return true
    }
    return false
  }

  const subtreeOf = (id: PageId): ReadonlyArray<PageId> => {
    const index = indexed()
    const below = new Set<PageId>([id])
    for (const current of below) for (const child of index.get(current)?.children ?? []) below.add(child.id)
    if (below.size === 1) return pages.has(id) ? [id] : []
    return Array.from(pages.keys()).filter((key) => below.has(key))
  }

  return { pages, set, remove, countUnder, childAt, slugTaken, positionTaken, subtreeOf }
}
