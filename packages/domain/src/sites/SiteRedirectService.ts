import { Effect, Option } from "effect"
import { pathIndex } from "../content/Resolve.js"
import { RevisionContents } from "../content/RevisionContents.js"
import { Conflict, InvalidInput, NotFound } from "../shared/Errors.js"
import { type PageId, type SiteId, SiteRedirectId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceRepository } from "../spaces/Ports.js"
import { SiteRedirectRepository, SiteRepository, SiteStructureRepository } from "./Ports.js"
import {
  type BulkSiteRedirectResult,
  BulkSiteRedirectsInput,
  canonicalSource,
  CreateSiteRedirectInput,
  MAX_SITE_REDIRECTS,
  type SiteRedirect,
  type SiteRedirectDestination,
  type SiteRedirectInputDestination,
  SiteRedirectListFilter,
  SiteRedirectSource,
  targetIn,
  UpdateSiteRedirectInput
} from "./Redirect.js"
import type { SiteSpace } from "./Site.js"
import { makeSiteWork } from "./SiteWork.js"
import type { SitePage } from "./Views.js"

/**
 * Site redirects, the API's `siteRedirects` group (GitBook's `site-redirects`): readers list and resolve them,
 * editors write them. Every write runs under the site's lock, so that the count and the sources stay unique.
 */
export class SiteRedirects extends Effect.Service<SiteRedirects>()("@octavo/domain/SiteRedirects", {
  effect: Effect.gen(function*() {
    const redirects = yield* SiteRedirectRepository
    const sites = yield* SiteRepository
    const structures = yield* SiteStructureRepository
    const spaces = yield* SpaceRepository
    const contents = yield* RevisionContents
    const uow = yield* UnitOfWork
    const { authorized, newId, readSite } = yield* makeSiteWork

    /** A page's path in the space's current revision. */
    const pagePathIn = (spaceId: SiteSpace["spaceId"], pageId: PageId) =>
      Effect.gen(function*() {
        const space = yield* spaces.findById(spaceId)
        if (Option.isNone(space)) return undefined
        return pathIndex(yield* contents.load(space.value.revisionId)).pathOf.get(pageId)
      })

    const refused = (rule: string) => new InvalidInput({ field: "destination", rule })

    /** A destination of the site's own structure, a page read from its path; one message for whatever is not the site's. */
    const destinationIn = (siteId: SiteId, input: SiteRedirectInputDestination) =>
      Effect.gen(function*() {
        if (input.kind === "external") return input as SiteRedirectDestination
        const structure = yield* structures.load(siteId)
        switch (input.kind) {
          case "site-section":
            if (!structure.sections.some((s) => s.id === input.siteSectionId)) {
              return yield* refused(`${input.siteSectionId} is not a section of this site`)
            }
            return input
          case "site-space":
          case "site-page": {
            const siteSpace = structure.siteSpaces.find((s) => s.id === input.siteSpaceId)
            if (siteSpace === undefined) return yield* refused(`${input.siteSpaceId} is not a site space of this site`)
            if (input.kind === "site-page" && (yield* pagePathIn(siteSpace.spaceId, input.pageId)) === undefined) {
              return yield* refused(`${input.pageId} is not a page of the space of ${siteSpace.id}`)
            }
            return input
          }
          case "path": {
            const siteSpace = structure.siteSpaces.find((s) => s.spaceId === input.spaceId)
            if (siteSpace === undefined) return yield* refused(`${input.spaceId} is not a space of this site`)
            const space = yield* spaces.findById(siteSpace.spaceId)
            const content = Option.isSome(space) ? yield* contents.load(space.value.revisionId) : undefined
            const pageId = content === undefined
              ? undefined
              : pathIndex(content).byPath.get(input.path.replace(/^\/+|\/+$/g, ""))
            if (pageId === undefined) return yield* refused(`no page of ${input.spaceId} has the path ${input.path}`)
            return { kind: "site-page", siteSpaceId: siteSpace.id, pageId } satisfies SiteRedirectDestination
          }
        }
      })

    const redirectOf = (siteId: SiteId, id: SiteRedirectId) =>
      Effect.flatMap(redirects.findById(id), (found) =>
        Option.isSome(found) && found.value.siteId === siteId
          ? Effect.succeed(found.value)
          : Effect.fail(new NotFound({ entity: "site redirect", id })))

    const fullAt = (count: number) =>
      count >= MAX_SITE_REDIRECTS
        ? Effect.fail(new Conflict({ reason: `This site has ${count} redirects, the most a site may have` }))
        : Effect.void
    const full = (siteId: SiteId) => Effect.flatMap(redirects.count(siteId), fullAt)

    /** A write on the site's redirects: the editor's role, then the site's lock, in one unit of work. */
    const writing = <A, E, R>(siteId: SiteId, action: string, write: Effect.Effect<A, E, R>) =>
      uow.transaction(Effect.gen(function*() {
        yield* authorized(siteId, "redirects", action)
        yield* sites.lock(siteId)
        return yield* write
      }))

    const listRedirects = (siteId: SiteId, filter: SiteRedirectListFilter, request: PageRequest) =>
      Effect.gen(function*() {
        const valid = yield* validate(SiteRedirectListFilter)(filter)
        const { view } = yield* readSite(siteId, undefined, "read", "read this site's redirects")
        const page = yield* redirects.list(siteId, {
          search: valid.search,
          draft: valid.draft ?? false,
          orderBy: valid.orderBy ?? "createdAt"
        }, request)
        return { site: view, ...page } satisfies SitePage<SiteRedirect>
      })

    const createRedirect = (siteId: SiteId, input: CreateSiteRedirectInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateSiteRedirectInput)(input)
        return yield* writing(
          siteId,
          "create redirects of this site",
          Effect.gen(function*() {
            yield* full(siteId)
            const redirect: SiteRedirect = {
              id: SiteRedirectId.make(yield* newId),
              siteId,
              source: canonicalSource(valid.source),
              draft: valid.draft ?? false,
              captureWildcard: valid.captureWildcard ?? false,
              permanent: valid.permanent ?? false,
              destination: yield* destinationIn(siteId, valid.destination),
              createdAt: yield* now,
              updatedAt: null
            }
            yield* redirects.insert(redirect)
            return redirect
          })
        )
      })

    const updateRedirect = (siteId: SiteId, id: SiteRedirectId, input: UpdateSiteRedirectInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSiteRedirectInput)(input)
        return yield* writing(
          siteId,
          "change redirects of this site",
          Effect.gen(function*() {
            const redirect = yield* redirectOf(siteId, id)
            const updated: SiteRedirect = {
              ...redirect,
              source: valid.source === undefined ? redirect.source : canonicalSource(valid.source),
              draft: valid.draft ?? redirect.draft,
              captureWildcard: valid.captureWildcard ?? redirect.captureWildcard,
              permanent: valid.permanent ?? redirect.permanent,
              destination: valid.destination === undefined ? redirect.destination : yield* destinationIn(siteId, valid.destination),
              updatedAt: yield* now
            }
            yield* redirects.update(updated)
            return updated
          })
        )
      })

    /** Deleting one that is not there is done already (GitBook answers it with a success too). */
    const removeRedirect = (siteId: SiteId, id: SiteRedirectId) =>
      writing(
        siteId,
        "delete redirects of this site",
        Effect.flatMap(redirects.findById(id), (found) =>
          Option.isSome(found) && found.value.siteId === siteId ? redirects.remove(id) : Effect.void)
      )

    /** One operation of a bulk request, on its own: its failure is its result's, not the request's. */
    /** One operation of a bulk request; `held` counts the site's redirects as the request goes (counted once, at its start). */
    const bulkOne = (
      siteId: SiteId,
      item: BulkSiteRedirectsInput["redirects"][number],
      held: { count: number }
    ): Effect.Effect<BulkSiteRedirectResult> => {
      const source = canonicalSource(item.source)
      const draft = item.intent === "draft"
      return Effect.gen(function*() {
        const at = yield* now
        if (item.intent === "publish") {
          const found = yield* redirects.findBySource(siteId, source, true)
          if (Option.isNone(found)) return { status: "error", source, draft: true, error: "No draft redirect has this source" } as const
          const live = yield* redirects.findBySource(siteId, source, false)
          if (Option.isSome(live)) {
            yield* redirects.remove(live.value.id)
            held.count--
          }
          yield* redirects.update({ ...found.value, draft: false, updatedAt: at })
          return { status: "published", source, draft: false, id: found.value.id } as const
        }
        const existing = yield* redirects.findBySource(siteId, source, draft)
        if (item.destination === null) {
          if (Option.isNone(existing)) return { status: "error", source, draft, error: "No redirect has this source" } as const
          yield* redirects.remove(existing.value.id)
          held.count--
          return { status: "deleted", source, draft } as const
        }
        const destination = yield* destinationIn(siteId, item.destination)
        if (Option.isSome(existing)) {
          yield* redirects.update({
            ...existing.value,
            destination,
            captureWildcard: item.captureWildcard ?? false,
            permanent: item.permanent ?? existing.value.permanent,
            updatedAt: at
          })
          return { status: "updated", source, draft, id: existing.value.id } as const
        }
        yield* fullAt(held.count)
        const created: SiteRedirect = {
          id: SiteRedirectId.make(yield* newId),
          siteId,
          source,
          draft,
          captureWildcard: item.captureWildcard ?? false,
          permanent: item.permanent ?? false,
          destination,
          createdAt: at,
          updatedAt: null
        }
        yield* redirects.insert(created)
        held.count++
        return { status: "created", source, draft, id: created.id } as const
      }).pipe(
        Effect.catchTags({
          InvalidInput: (error) => Effect.succeed({ status: "error", source, draft, error: error.message } as const),
          Conflict: (error) => Effect.succeed({ status: "error", source, draft, error: error.message } as const)
        })
      )
    }

    /** GitBook's bulk upsert: each operation in turn, each with its own result. */
    const bulkRedirects = (siteId: SiteId, input: BulkSiteRedirectsInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(BulkSiteRedirectsInput)(input)
        return yield* writing(
          siteId,
          "change redirects of this site",
          Effect.flatMap(redirects.count(siteId), (count) => {
            const held = { count }
            return Effect.forEach(valid.redirects, (item) => bulkOne(siteId, item, held))
          })
        )
      })

    /** The live redirect a source leads through (exactly that source), with where it leads as readers see the site now. */
    const resolveRedirect = (siteId: SiteId, source: string, shareKey: string | undefined) =>
      Effect.gen(function*() {
        const valid = yield* validate(SiteRedirectSource)(source).pipe(
          Effect.mapError((e) => new InvalidInput({ field: "source", rule: e.rule }))
        )
        const { shown, view } = yield* readSite(siteId, shareKey, "read", "read this site's redirects")
        const found = yield* redirects.findBySource(siteId, canonicalSource(valid), false)
        const notFound = new NotFound({ entity: "site redirect", id: valid })
        if (Option.isNone(found)) return yield* notFound
        const target = yield* targetIn(shown, found.value.destination, (siteSpace, pageId) => pagePathIn(siteSpace.spaceId, pageId))
        if (target === undefined) return yield* notFound
        return { site: view, redirect: found.value, target }
      })

    return { listRedirects, createRedirect, updateRedirect, removeRedirect, bulkRedirects, resolveRedirect } as const
  })
}) {}
