import { Effect, FiberRef, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { makeAccess, type Membership } from "../organizations/Access.js"
import { isGuest } from "../organizations/Policy.js"
import { InvalidInput, NotFound } from "../shared/Errors.js"
import type { OrganizationId, SiteId, SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { Secrets } from "../shared/Secrets.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceRepository } from "../spaces/Ports.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { indexCollections } from "../spaces/Tree.js"
import { SpaceViews } from "../spaces/SpaceViews.js"
import { commitTree } from "./Commit.js"
import { requireSiteRole, type siteRoles } from "./Policy.js"
import { ShareLinkRepository, SiteRepository, SiteStructureRepository, SiteTreeReads } from "./Ports.js"
import { openingKey } from "./Reading.js"
import { ShareKeyQuery, type Site, type SiteTree } from "./Site.js"
import { liveOf, shownWith, siteView } from "./Views.js"

/** Bytes of the secret that signs a site's visitor tokens. */
export const SIGNING_SECRET_BYTES = 32

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
 * What the sites context's services share: finding a site the actor may see, reading what readers
 * see of its tree, and changing its structure. Every structural change runs in one unit of work
 * holding the site's lock: it loads the tree, applies one transition of `Structure`, and writes what
 * changed.
 */
export const makeSiteWork = Effect.gen(function*() {
  const sites = yield* SiteRepository
  const structures = yield* SiteStructureRepository
  const treeReads = yield* SiteTreeReads
  const shareLinks = yield* ShareLinkRepository
  const spaces = yield* SpaceRepository
  const guard = yield* SpaceAccess
  const views = yield* SpaceViews
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

  const authorized = (siteId: SiteId, need: keyof typeof siteRoles, action: string) =>
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

  /** `shownWith`, with what it needs read. */
  const visibleTree = (access: Membership, tree: SiteTree, shareKey?: string) =>
    Effect.gen(function*() {
      const onSpaces = yield* spaces.findMany([...new Set(tree.siteSpaces.map((s) => s.spaceId))])
      const collections = yield* guard.treeOf(tree.site.organizationId)
      return shownWith(tree, yield* views.of(access, collections, liveOf(tree, onSpaces), shareKey))
    })

  /** The key, when it opens the site (`openingKey`); malformed is a 400, anything else is ignored. */
  const effectiveShareKey = (site: Site, key: string | undefined) =>
    Effect.gen(function*() {
      if (key === undefined) return undefined
      yield* validate(ShareKeyQuery)(key).pipe(Effect.mapError((e) => new InvalidInput({ field: "shareKey", rule: e.rule })))
      return openingKey(site, key, yield* shareLinks.active(site.id))
    })

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

  /** Writes what changed from `before` to `after`. */
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

  /** The site's view and what readers see of a tree just written. */
  const viewAfter = (access: Membership, tree: SiteTree) =>
    Effect.map(visibleTree(access, tree), (shown) => ({ shown, view: siteView(access, tree.site, shown.tree.siteSpaces.length) }))

  return {
    organization,
    visible,
    authorized,
    loadTree,
    spaceInput,
    readSite,
    commit,
    change,
    reshape,
    viewAfter,
    newId: secrets.newId
  } as const
})
