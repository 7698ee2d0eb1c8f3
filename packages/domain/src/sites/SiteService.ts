import { Effect, FiberRef, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { makeAccess, type Membership } from "../organizations/Access.js"
import { isGuest } from "../organizations/Policy.js"
import { InvalidInput, NotFound } from "../shared/Errors.js"
import {
  type OrganizationId,
  ShareLinkId,
  SiteId,
  SiteSectionGroupId,
  SiteSectionId,
  SiteSpaceId,
  type SpaceId
} from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { type Keyset, mapPage, type Page, pageInMemory, type PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceRepository } from "../spaces/Ports.js"
import type { Space } from "../spaces/Space.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { indexCollections } from "../spaces/Tree.js"
import { Spaces } from "../spaces/SpaceService.js"
import { type SpaceView, SpaceViews } from "../spaces/SpaceViews.js"
import { adaptiveSchemaProblem, defaultAdaptiveSchema } from "./AdaptiveSchema.js"
import { requireSiteRole, type SitePermissions, sitePermissions } from "./Policy.js"
import { commitTree } from "./Commit.js"
import { ShareLinkRepository, SiteReads, SiteRepository, SiteStructureRepository, SiteTreeReads } from "./Ports.js"
import {
  AddGroupInput,
  AddSectionInput,
  AddSiteSpaceInput,
  AdaptiveSchemaInput,
  CreateShareLinkInput,
  CreateSiteInput,
  type ShareLink,
  ShareKeyQuery,
  type Site,
  type SiteListFilter,
  SiteListFilter as SiteListFilterSchema,
  type SiteSection,
  type SiteSectionGroup,
  type SiteSectionPosition,
  type SiteSpace,
  type SiteSpacePosition,
  type SiteTree,
  UpdateGroupInput,
  UpdatePublishingAuthInput,
  UpdateSectionInput,
  UpdateShareLinkInput,
  UpdateSiteInput,
  UpdateSiteSpaceInput
} from "./Site.js"
import { openingKey, sectionSegments, type ShownTree, shownTree, showsSpace, siteSpaceSegments } from "./Reading.js"
import * as Structure from "./Structure.js"

/** Where a site is published: behind its proxy, or at `/sites/<organization>/<site>` of the instance. */
export interface SiteLocation {
  readonly published: boolean
  readonly proxy: string | null
  /** The organization's hostname, else its id. */
  readonly organization: string
  /** The site's basename, else its id. */
  readonly site: string
}

/** A site as a member sees it. */
export interface SiteView {
  readonly site: Site
  readonly location: SiteLocation
  readonly permissions: SitePermissions
  /** Its site spaces, those of soft-deleted spaces not counted. */
  readonly siteSpaceCount: number
  /** The share key this read was made with, when it opens the site: published URLs carry it. */
  readonly shareKey: string | undefined
}

export interface SiteSpaceView {
  readonly siteSpace: SiteSpace
  readonly space: SpaceView
  readonly default: boolean
  /** The segments after the site's URL: the section's path (but the default section's), then its own (but the default's). */
  readonly path: ReadonlyArray<string>
}

export interface SectionView {
  readonly section: SiteSection
  readonly default: boolean
  readonly siteSpaces: ReadonlyArray<SiteSpaceView>
  readonly path: ReadonlyArray<string>
}

export interface GroupView {
  readonly group: SiteSectionGroup
  readonly sections: ReadonlyArray<SectionView>
}

/** The site's structure as published: its root site spaces, or its root sections and groups, in order. */
export type PublishedStructure =
  | { readonly type: "siteSpaces"; readonly items: ReadonlyArray<SiteSpaceView> }
  | { readonly type: "sections"; readonly items: ReadonlyArray<{ readonly section: SectionView } | { readonly group: GroupView }> }

/** A page of a site's items, with the site they are in (for their URLs). */
export interface SitePage<A> extends Page<A> {
  readonly site: SiteView
}

/** The secret that signs visitor tokens, and where visitors go to sign in and out. */
export interface PublishingAuthView {
  readonly privateKey: string
  readonly fallbackURL: string | null
  readonly logoutURL: string | null
}

const isSpaceIds = (spaces: CreateSiteInput["spaces"]): spaces is ReadonlyArray<SpaceId> => Array.isArray(spaces)

const SHARE_KEY_LENGTH = 32
const SIGNING_SECRET_BYTES = 32

/** A tree as readers see it (`shownTree`), with the views of its spaces. */
interface VisibleTree extends ShownTree {
  readonly spaces: ReadonlyMap<string, SpaceView>
}

/** The organization that the sites named inside `inOrganization` must belong to; none outside it. */
const siteOrganization = FiberRef.unsafeMake<Option.Option<OrganizationId>>(Option.none())

/**
 * Runs use cases on sites named under an organization (a path's `/orgs/{id}/sites/{id}`): a site of
 * any other organization is not found, as if it did not exist, by the same read that finds the site
 * and the caller's membership (no read of its own).
 */
export const inOrganization = (organizationId: OrganizationId) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.locally(effect, siteOrganization, Option.some(organizationId))

/**
 * Sites (conventions-2.md §1): their structure of sections, groups and site spaces, share links,
 * adaptive schema, publishing auth and published view. Every structural change runs in one unit of
 * work holding the site's lock: it loads the tree, applies one transition of `Structure`, and
 * writes what changed.
 */
export class Sites extends Effect.Service<Sites>()("@octavo/domain/Sites", {
  effect: Effect.gen(function*() {
    const sites = yield* SiteRepository
    const structures = yield* SiteStructureRepository
    const siteReads = yield* SiteReads
    const treeReads = yield* SiteTreeReads
    const shareLinks = yield* ShareLinkRepository
    const spaces = yield* SpaceRepository
    const guard = yield* SpaceAccess
    const views = yield* SpaceViews
    const spaceService = yield* Spaces
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const accessOrganization = yield* makeAccess

    /** The organization as a member with a role sees it; guests and others are told it does not exist. */
    const organization = (organizationId: OrganizationId) =>
      Effect.flatMap(
        accessOrganization(organizationId),
        (access) =>
          isGuest(access.member) ? Effect.fail(new NotFound({ entity: "organization", id: organizationId })) : Effect.succeed(access)
      )

    /**
     * A site the actor may see, with the actor's membership; inside `inOrganization`, only a site of
     * that organization.
     */
    const visible = (siteId: SiteId) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const scope = yield* FiberRef.get(siteOrganization)
        const found = yield* sites.findForAccess(siteId, actor.id)
        // As `organization` decides: a guest, like an outsider, is told the site does not exist.
        const membership = Option.flatMap(found, (f) => Option.filter(f.membership, (m) => !isGuest(m.member)))
        const elsewhere = Option.isSome(found) && Option.isSome(scope) && found.value.site.organizationId !== scope.value
        if (Option.isNone(found) || Option.isNone(membership) || elsewhere) return yield* new NotFound({ entity: "site", id: siteId })
        return { site: found.value.site, access: membership.value }
      })

    /** The site a path names: not found unless it is a site the actor may see, in that organization. */
    const locate = (organizationId: OrganizationId, siteId: SiteId) => Effect.asVoid(inOrganization(organizationId)(visible(siteId)))

    const authorized = (siteId: SiteId, need: "read" | "structure" | "admin", action: string) =>
      Effect.tap(visible(siteId), ({ access }) => requireSiteRole(access.member, need, action))

    const loadTree = (site: Site) => Effect.map(structures.load(site.id), (rest): SiteTree => ({ site, ...rest }))

    /** A space named in a body: of this organization and not deleted, or one message for all three. */
    const spaceInput = (organizationId: OrganizationId, spaceId: SpaceId, field: string) =>
      Effect.flatMap(
        spaces.findById(spaceId),
        (found) =>
          Option.isSome(found) && found.value.organizationId === organizationId && found.value.deletedAt === undefined
            ? Effect.succeed(found.value)
            : Effect.fail(new InvalidInput({ field, rule: `${spaceId} is not a space of this organization` }))
      )

    /** The spaces the organization's sites show (`showsSpace`) of those a site's site spaces are on. */
    const liveOf = (tree: SiteTree, onSpaces: ReadonlyArray<Space>) => onSpaces.filter((s) => showsSpace(tree.site.organizationId, s))

    /** What readers see of a site's tree, from the views of the spaces it shows. */
    const shownWith = (tree: SiteTree, spaceViews: ReadonlyArray<SpaceView>): VisibleTree => {
      const bySpace = new Map(spaceViews.map((v) => [v.space.id as string, v]))
      return { ...shownTree(tree, (id) => bySpace.has(id)), spaces: bySpace }
    }

    /** `shownWith`, with what it needs read. */
    const visibleTree = (access: Membership, tree: SiteTree, shareKey?: string) =>
      Effect.gen(function*() {
        const onSpaces = yield* spaces.findMany([...new Set(tree.siteSpaces.map((s) => s.spaceId))])
        const collections = yield* guard.treeOf(tree.site.organizationId)
        return shownWith(tree, yield* views.of(access, collections, liveOf(tree, onSpaces), shareKey))
      })

    const locationOf = (access: Membership, site: Site): SiteLocation => ({
      published: site.published,
      proxy: site.proxy,
      organization: access.organization.hostname ?? site.organizationId,
      site: site.basename ?? site.id
    })

    /** The key, when it opens the site (`openingKey`); malformed is a 400, anything else is ignored. */
    const effectiveShareKey = (site: Site, key: string | undefined) =>
      Effect.gen(function*() {
        if (key === undefined) return undefined
        yield* validate(ShareKeyQuery)(key).pipe(Effect.mapError((e) => new InvalidInput({ field: "shareKey", rule: e.rule })))
        return openingKey(site, key, yield* shareLinks.active(site.id))
      })

    const siteView = (access: Membership, site: Site, siteSpaceCount: number, shareKey?: string): SiteView => ({
      site,
      location: locationOf(access, site),
      permissions: sitePermissions(access.member),
      siteSpaceCount,
      shareKey
    })

    const siteSpaceView = (shown: VisibleTree, siteSpace: SiteSpace): SiteSpaceView => ({
      siteSpace,
      space: shown.spaces.get(siteSpace.spaceId)!,
      default: shown.defaults.has(siteSpace.id),
      path: siteSpaceSegments(shown, siteSpace)
    })

    const sectionView = (shown: VisibleTree, section: SiteSection): SectionView => ({
      section,
      default: shown.tree.site.defaultSectionId === section.id,
      path: sectionSegments(shown.tree, section.id),
      siteSpaces: Structure.siteSpacesIn(shown.tree, section.id).map((s) => siteSpaceView(shown, s))
    })

    const groupView = (shown: VisibleTree, group: SiteSectionGroup): GroupView => ({
      group,
      sections: Structure.sectionsIn(shown.tree, group.id).map((s) => sectionView(shown, s))
    })

    /** Sections in structure order, each with a keyset that keeps that order: (group key ! section key). */
    const orderedSections = (tree: SiteTree) =>
      Structure.rootItems(tree).flatMap((item) =>
        item.kind === "section"
          ? [{ section: item as SiteSection, key: item.position }]
          : Structure.sectionsIn(tree, item.id).map((section) => ({ section, key: `${item.position}!${section.position}` }))
      )

    /** Everything a read of a site's structure needs: the site's view and what readers see of its tree. */
    const readSite = (
      siteId: SiteId,
      shareKey: string | undefined,
      need: "read" | "admin" = "read",
      action = "read this site"
    ) =>
      Effect.gen(function*() {
        const { access, site } = yield* authorized(siteId, need, action)
        const key = yield* effectiveShareKey(site, shareKey)
        const read = yield* treeReads.tree(site, access.organization, key)
        const tree: SiteTree = { site, ...read.structure }
        const shown = shownWith(tree, views.withFacts(access, indexCollections(read.collections), liveOf(tree, read.spaces), read.facts))
        return { access, shown, view: siteView(access, site, shown.tree.siteSpaces.length, key) }
      })

    const commit = (before: SiteTree, after: SiteTree) =>
      commitTree(before, after).pipe(
        Effect.provideService(SiteRepository, sites),
        Effect.provideService(SiteStructureRepository, structures)
      )

    /**
     * One structural change: checks the role, takes the site's lock, reads the site and its tree again
     * under it, applies `transition` and writes what changed, all in one unit of work.
     */
    const change = <A, E>(
      siteId: SiteId,
      need: "structure" | "admin",
      action: string,
      transition: (tree: SiteTree, access: Membership) => Effect.Effect<{ readonly tree: SiteTree; readonly result: A }, E>
    ) =>
      uow.transaction(Effect.gen(function*() {
        const { access } = yield* authorized(siteId, need, action)
        yield* sites.lock(siteId)
        const site = yield* sites.findById(siteId)
        if (Option.isNone(site)) return yield* new NotFound({ entity: "site", id: siteId })
        const before = yield* loadTree(site.value)
        const { result, tree } = yield* transition(before, access)
        yield* commit(before, tree)
        return { access, tree, result }
      }))

    /** A change whose answer is nothing but the new tree. */
    const reshape = <E>(siteId: SiteId, action: string, transition: (tree: SiteTree) => Effect.Effect<SiteTree, E>) =>
      change(siteId, "structure", action, (tree) => Effect.map(transition(tree), (next) => ({ tree: next, result: undefined })))

    const viewAfter = (access: Membership, tree: SiteTree) =>
      Effect.map(visibleTree(access, tree), (shown) => ({ shown, view: siteView(access, tree.site, shown.tree.siteSpaces.length) }))

    const newId = secrets.newId

    // Sites.

    const create = (organizationId: OrganizationId, input: CreateSiteInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateSiteInput)(input)
        const access = yield* organization(organizationId)
        yield* requireSiteRole(access.member, "structure", "create a site")
        const at = yield* now
        const title = valid.title?.trim() ?? "Untitled site"
        return yield* uow.transaction(Effect.gen(function*() {
          const site: Site = {
            id: SiteId.make(yield* newId),
            organizationId,
            type: valid.type ?? "basic",
            title,
            visibility: valid.visibility ?? "public",
            published: false,
            basename: null,
            proxy: null,
            adaptiveContent: false,
            defaultSiteSpaceId: null,
            defaultSectionId: null,
            publishingAuth: { privateKey: yield* secrets.newSecret(SIGNING_SECRET_BYTES), fallbackURL: null, logoutURL: null },
            adaptiveSchema: null,
            createdAt: at,
            updatedAt: at
          }
          yield* sites.insert(site)
          const given = valid.spaces
          const added: Array<Space> = []
          if (isSpaceIds(given)) {
            for (const [i, spaceId] of given.entries()) {
              added.push(yield* spaceInput(organizationId, spaceId, `spaces.${i}`))
            }
          } else if (given !== undefined) {
            const made = yield* spaceService.create(organizationId, {
              title: given.title ?? title.slice(0, 50),
              ...(given.emoji !== undefined ? { emoji: given.emoji } : {}),
              ...(given.parent !== undefined ? { parent: given.parent } : {})
            })
            added.push(made.space)
          }
          const empty: SiteTree = { site, sections: [], groups: [], siteSpaces: [] }
          let tree = empty
          for (const space of added) {
            const next = yield* Structure.addSiteSpace(tree, {
              id: SiteSpaceId.make(yield* newId),
              spaceId: space.id,
              spaceTitle: space.title,
              at
            })
            tree = next.tree
          }
          yield* commit(empty, tree)
          return siteView(access, tree.site, tree.siteSpaces.length)
        }))
      })

    const list = (organizationId: OrganizationId, filter: SiteListFilter, request: PageRequest) =>
      Effect.gen(function*() {
        const valid = yield* validate(SiteListFilterSchema)(filter)
        const access = yield* organization(organizationId)
        // A space the organization's sites do not show (soft-deleted, transferred) holds no site.
        if (valid.space !== undefined) {
          const space = yield* spaces.findById(valid.space as SpaceId)
          if (!Option.exists(space, (s) => showsSpace(organizationId, s))) return { items: [], count: 0, next: Option.none() }
        }
        const page = yield* sites.list(organizationId, {
          spaceId: valid.space as SpaceId | undefined,
          title: valid.title,
          published: valid.published,
          types: valid.types
        }, request)
        const { held, spaces: onSpaces } = yield* siteReads.spacesOf(page.items.map((s) => s.id))
        const live = new Set(onSpaces.filter((s) => showsSpace(organizationId, s)).map((s) => s.id as string))
        const counts = new Map<string, number>()
        for (const h of held) if (live.has(h.spaceId)) counts.set(h.siteId, (counts.get(h.siteId) ?? 0) + 1)
        return mapPage(page, (site) => siteView(access, site, counts.get(site.id) ?? 0))
      })

    const get = (siteId: SiteId, shareKey?: string) => Effect.map(readSite(siteId, shareKey), ({ view }) => view)

    const update = (siteId: SiteId, input: UpdateSiteInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSiteInput)(input)
        const at = yield* now
        const { access, tree } = yield* change(siteId, "admin", "change this site", (tree) =>
          Effect.gen(function*() {
            let next: SiteTree = {
              ...tree,
              site: {
                ...tree.site,
                title: valid.title?.trim() ?? tree.site.title,
                visibility: valid.visibility ?? tree.site.visibility,
                basename: valid.basename === undefined ? tree.site.basename : valid.basename,
                proxy: valid.proxy === undefined ? tree.site.proxy : valid.proxy === null ? null : valid.proxy.toLowerCase(),
                adaptiveContent: valid.adaptiveContent?.enabled ?? tree.site.adaptiveContent,
                updatedAt: at
              }
            }
            if (valid.defaultSiteSection !== undefined) next = yield* Structure.setDefaultSection(next, valid.defaultSiteSection)
            if (valid.defaultSiteSpace !== undefined) next = yield* Structure.setSiteDefaultSiteSpace(next, valid.defaultSiteSpace)
            return { tree: next, result: undefined }
          }))
        return (yield* viewAfter(access, tree)).view
      })

    const remove = (siteId: SiteId) =>
      uow.transaction(Effect.gen(function*() {
        yield* authorized(siteId, "admin", "delete this site")
        yield* sites.lock(siteId)
        yield* sites.remove(siteId)
      }))

    const setPublished = (siteId: SiteId, published: boolean) =>
      Effect.gen(function*() {
        const at = yield* now
        const { access, tree } = yield* change(siteId, "structure", published ? "publish this site" : "unpublish this site", (tree) =>
          Effect.succeed({
            tree: tree.site.published === published ? tree : { ...tree, site: { ...tree.site, published, updatedAt: at } },
            result: undefined
          }))
        return (yield* viewAfter(access, tree)).view
      })

    // Site spaces.

    const listSiteSpaces = (
      siteId: SiteId,
      query: { readonly default?: boolean | undefined; readonly shareKey?: string | undefined },
      request: PageRequest
    ) =>
      Effect.gen(function*() {
        const { shown, view } = yield* readSite(siteId, query.shareKey)
        const all: Array<{ readonly view: SiteSpaceView; readonly key: string }> = []
        if (Structure.hasSections(shown.tree)) {
          for (const { key, section } of orderedSections(shown.tree)) {
            const sv = sectionView(shown, section)
            for (const s of sv.siteSpaces) all.push({ view: s, key: `${key}!${s.siteSpace.position}` })
          }
        } else {
          for (const s of Structure.siteSpacesIn(shown.tree, null)) all.push({ view: siteSpaceView(shown, s), key: s.position })
        }
        // In a sectioned site, "the default" is the default section's default.
        const siteDefault = (v: SiteSpaceView) =>
          v.default && (v.siteSpace.sectionId === null || v.siteSpace.sectionId === shown.tree.site.defaultSectionId)
        const chosen = query.default === undefined ? all : all.filter((x) => siteDefault(x.view) === query.default)
        const page = pageInMemory(chosen, (x): Keyset => [x.key, x.view.siteSpace.id], "asc", request)
        return { site: view, ...mapPage(page, (x) => x.view) } satisfies SitePage<SiteSpaceView>
      })

    /** The view of one site space of a tree just written. */
    const siteSpaceAfter = (access: Membership, tree: SiteTree, id: SiteSpaceId) =>
      Effect.gen(function*() {
        const { shown, view } = yield* viewAfter(access, tree)
        const siteSpace = shown.tree.siteSpaces.find((s) => s.id === id)
        if (siteSpace === undefined) return yield* new NotFound({ entity: "site space", id })
        return { site: view, siteSpace: siteSpaceView(shown, siteSpace) }
      })

    const addSiteSpace = (siteId: SiteId, input: AddSiteSpaceInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(AddSiteSpaceInput)(input)
        const at = yield* now
        const id = SiteSpaceId.make(yield* newId)
        const { access, tree } = yield* change(siteId, "structure", "add a space to this site", (tree) =>
          Effect.gen(function*() {
            const space = yield* spaceInput(tree.site.organizationId, valid.spaceId, "spaceId")
            const added = yield* Structure.addSiteSpace(tree, {
              id,
              spaceId: space.id,
              spaceTitle: space.title,
              sectionId: valid.sectionId,
              at
            })
            return { tree: added.tree, result: undefined }
          }))
        return yield* siteSpaceAfter(access, tree, id)
      })

    const updateSiteSpace = (siteId: SiteId, id: SiteSpaceId, input: UpdateSiteSpaceInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSiteSpaceInput)(input)
        const { access, tree } = yield* reshape(siteId, "change this site's spaces", (tree) => Structure.updateSiteSpace(tree, id, valid))
        return yield* siteSpaceAfter(access, tree, id)
      })

    const moveSiteSpace = (siteId: SiteId, id: SiteSpaceId, position: SiteSpacePosition | undefined) =>
      Effect.gen(function*() {
        const { access, tree } = yield* reshape(siteId, "move this site's spaces", (tree) => Structure.moveSiteSpace(tree, id, position))
        return yield* siteSpaceAfter(access, tree, id)
      })

    const removeSiteSpace = (siteId: SiteId, id: SiteSpaceId) =>
      Effect.asVoid(reshape(siteId, "remove this site's spaces", (tree) => Structure.removeSiteSpace(tree, id)))

    // Sections and groups.

    const listSections = (
      siteId: SiteId,
      shareKey: string | undefined,
      request: PageRequest
    ) =>
      Effect.gen(function*() {
        const { shown, view } = yield* readSite(siteId, shareKey)
        const all = orderedSections(shown.tree)
        const page = pageInMemory(all, (x): Keyset => [x.key, x.section.id], "asc", request)
        return { site: view, ...mapPage(page, (x) => sectionView(shown, x.section)) } satisfies SitePage<SectionView>
      })

    const sectionAfter = (access: Membership, tree: SiteTree, id: SiteSectionId) =>
      Effect.gen(function*() {
        const { shown, view } = yield* viewAfter(access, tree)
        const section = shown.tree.sections.find((s) => s.id === id)
        if (section === undefined) return yield* new NotFound({ entity: "site section", id })
        return { site: view, section: sectionView(shown, section) }
      })

    const addSection = (siteId: SiteId, input: AddSectionInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(AddSectionInput)(input)
        const at = yield* now
        const id = SiteSectionId.make(yield* newId)
        const siteSpaceId = SiteSpaceId.make(yield* newId)
        const defaultSectionId = SiteSectionId.make(yield* newId)
        const { access, tree } = yield* change(siteId, "structure", "add a section to this site", (tree) =>
          Effect.gen(function*() {
            const space = yield* spaceInput(tree.site.organizationId, valid.spaceId, "spaceId")
            const added = yield* Structure.addSection(tree, {
              id,
              siteSpaceId,
              spaceId: space.id,
              spaceTitle: space.title,
              title: valid.title,
              icon: valid.icon,
              groupId: valid.sectionGroupId,
              defaultSectionId,
              at
            })
            return { tree: added.tree, result: undefined }
          }))
        return yield* sectionAfter(access, tree, id)
      })

    const updateSection = (siteId: SiteId, id: SiteSectionId, input: UpdateSectionInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSectionInput)(input)
        const { access, tree } = yield* reshape(siteId, "change this site's sections", (tree) => Structure.updateSection(tree, id, valid))
        return yield* sectionAfter(access, tree, id)
      })

    const moveSection = (siteId: SiteId, id: SiteSectionId, position: SiteSectionPosition | undefined) =>
      Effect.gen(function*() {
        const { access, tree } = yield* reshape(siteId, "move this site's sections", (tree) => Structure.moveSection(tree, id, position))
        return yield* sectionAfter(access, tree, id)
      })

    const removeSection = (siteId: SiteId, id: SiteSectionId) =>
      Effect.asVoid(reshape(siteId, "remove this site's sections", (tree) => Structure.removeSection(tree, id)))

    const getSection = (siteId: SiteId, id: SiteSectionId, shareKey?: string) =>
      Effect.gen(function*() {
        const { shown, view } = yield* readSite(siteId, shareKey)
        const section = shown.tree.sections.find((s) => s.id === id)
        if (section === undefined) return yield* new NotFound({ entity: "site section", id })
        return { site: view, section: sectionView(shown, section) }
      })

    const listGroups = (siteId: SiteId, request: PageRequest) =>
      Effect.gen(function*() {
        const { shown, view } = yield* readSite(siteId, undefined)
        const page = pageInMemory(shown.tree.groups, (g): Keyset => [g.position, g.id], "asc", request)
        return { site: view, ...mapPage(page, (g) => groupView(shown, g)) } satisfies SitePage<GroupView>
      })

    const groupAfter = (access: Membership, tree: SiteTree, id: SiteSectionGroupId) =>
      Effect.gen(function*() {
        const { shown, view } = yield* viewAfter(access, tree)
        const group = shown.tree.groups.find((g) => g.id === id)
        if (group === undefined) return yield* new NotFound({ entity: "site section group", id })
        return { site: view, group: groupView(shown, group) }
      })

    const addGroup = (siteId: SiteId, input: AddGroupInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(AddGroupInput)(input)
        const at = yield* now
        const id = SiteSectionGroupId.make(yield* newId)
        const { access, tree } = yield* change(siteId, "structure", "add a section group to this site", (tree) =>
          Effect.map(
            Structure.addGroup(tree, { id, title: valid.title, icon: valid.icon, sections: valid.sections, at }),
            (added) => ({ tree: added.tree, result: undefined })
          ))
        return yield* groupAfter(access, tree, id)
      })

    const updateGroup = (siteId: SiteId, id: SiteSectionGroupId, input: UpdateGroupInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateGroupInput)(input)
        const { access, tree } = yield* reshape(
          siteId,
          "change this site's section groups",
          (tree) => Structure.updateGroup(tree, id, valid)
        )
        return yield* groupAfter(access, tree, id)
      })

    const moveGroup = (siteId: SiteId, id: SiteSectionGroupId, position: SiteSectionPosition | undefined) =>
      Effect.gen(function*() {
        const { access, tree } = yield* reshape(
          siteId,
          "move this site's section groups",
          (tree) => Structure.moveGroup(tree, id, position)
        )
        return yield* groupAfter(access, tree, id)
      })

    const removeGroup = (siteId: SiteId, id: SiteSectionGroupId) =>
      Effect.asVoid(reshape(siteId, "remove this site's section groups", (tree) => Structure.removeGroup(tree, id)))

    const addSectionToGroup = (siteId: SiteId, groupId: SiteSectionGroupId, sectionId: SiteSectionId) =>
      Effect.gen(function*() {
        const { access, tree } = yield* reshape(siteId, "change this site's section groups", (tree) =>
          Structure.addSectionToGroup(tree, groupId, sectionId))
        return yield* groupAfter(access, tree, groupId)
      })

    const removeSectionFromGroup = (siteId: SiteId, groupId: SiteSectionGroupId, sectionId: SiteSectionId) =>
      Effect.asVoid(
        reshape(siteId, "change this site's section groups", (tree) => Structure.removeSectionFromGroup(tree, groupId, sectionId))
      )

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

    // Share links.

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
      locate,
      create,
      list,
      get,
      update,
      remove,
      publish: (siteId: SiteId) => setPublished(siteId, true),
      unpublish: (siteId: SiteId) => setPublished(siteId, false),
      listSiteSpaces,
      addSiteSpace,
      updateSiteSpace,
      moveSiteSpace,
      removeSiteSpace,
      listSections,
      getSection,
      addSection,
      updateSection,
      moveSection,
      removeSection,
      listGroups,
      addGroup,
      updateGroup,
      moveGroup,
      removeGroup,
      addSectionToGroup,
      removeSectionFromGroup,
      published,
      listShareLinks,
      createShareLink,
      updateShareLink,
      removeShareLink,
      adaptiveSchema,
      setAdaptiveSchema,
      publishingAuth,
      updatePublishingAuth,
      regeneratePublishingAuth
    } as const
  })
}) {}
