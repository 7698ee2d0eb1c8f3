import { Effect } from "effect"
import type { Membership } from "../organizations/Access.js"
import { NotFound } from "../shared/Errors.js"
import { type SiteId, SiteSectionGroupId, SiteSectionId, SiteSpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { type Keyset, mapPage, pageInMemory, type PageRequest } from "../shared/Pagination.js"
import { now } from "../shared/Time.js"
import {
  AddGroupInput,
  AddSectionInput,
  type SiteSectionPosition,
  type SiteTree,
  UpdateGroupInput,
  UpdateSectionInput
} from "./Site.js"
import { declareStructure, type DeclaredStructure } from "./Declared.js"
import { makeSiteWork } from "./SiteWork.js"
import * as Structure from "./Structure.js"
import { type GroupView, groupView, orderedSections, type SectionView, sectionView, type SitePage } from "./Views.js"

/**
 * A site's sections and section groups, their part of the API's `siteStructure` group; its site
 * spaces are `SiteSpaces`. Each change is one transition of `Structure` under the site's lock
 * (`makeSiteWork`'s `change`).
 */
export class SiteSections extends Effect.Service<SiteSections>()("@octavo/domain/SiteSections", {
  effect: Effect.gen(function*() {
    const { authorized, change, loadTree, newId, readSite, reshape, spaceInput, viewAfter } = yield* makeSiteWork

    // Sections.

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

    // Section groups.

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

    // A whole structure at once.

    /**
     * Makes the site's structure the declared one (a site's Git Sync configuration), in one change under the site's
     * lock; answers the id of each declared item by its `ref`. Needs the `structure` role on the site.
     */
    const declare = (siteId: SiteId, declared: DeclaredStructure) =>
      Effect.gen(function*() {
        const at = yield* now
        const { result } = yield* change(siteId, "structure", "change this site's structure", (tree) =>
          Effect.gen(function*() {
            const spaceIds = new Set([
              ...declared.siteSpaces,
              ...declared.items.flatMap((i) => (i.kind === "section" ? [i] : i.sections)).flatMap((s) => s.siteSpaces)
            ].map((s) => s.spaceId))
            for (const spaceId of spaceIds) yield* spaceInput(tree.site.organizationId, spaceId, "structure")
            const made = yield* declareStructure(tree, declared, () => newId, at)
            return { tree: made.tree, result: made.ids }
          }))
        return result
      })

    /** The site's tree as it is, for one who may change its structure (a site's Git Sync reads it before declaring one). */
    const structureFor = (siteId: SiteId, action: string) =>
      Effect.flatMap(authorized(siteId, "structure", action), ({ site }) => loadTree(site))

    return {
      declare,
      structureFor,
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
      removeSectionFromGroup
    } as const
  })
}) {}
