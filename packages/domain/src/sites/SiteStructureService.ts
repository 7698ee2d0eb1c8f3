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
  AddSiteSpaceInput,
  type SiteSectionPosition,
  type SiteSpacePosition,
  type SiteTree,
  UpdateGroupInput,
  UpdateSectionInput,
  UpdateSiteSpaceInput
} from "./Site.js"
import { makeSiteWork } from "./SiteWork.js"
import * as Structure from "./Structure.js"
import {
  type GroupView,
  groupView,
  orderedSections,
  type SectionView,
  sectionView,
  type SitePage,
  type SiteSpaceView,
  siteSpaceView
} from "./Views.js"

/**
 * A site's structure, the API's `siteStructure` group: its site spaces, sections and section groups.
 * Each change is one transition of `Structure` under the site's lock (`makeSiteWork`'s `change`).
 */
export class SiteStructure extends Effect.Service<SiteStructure>()("@octavo/domain/SiteStructure", {
  effect: Effect.gen(function*() {
    const { change, newId, readSite, reshape, spaceInput, viewAfter } = yield* makeSiteWork

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

    return {
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
      removeSectionFromGroup
    } as const
  })
}) {}
