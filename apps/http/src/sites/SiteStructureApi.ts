import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import {
  AddGroupInput,
  AddSectionInput,
  AddSiteSpaceInput,
  SiteSectionGroupId,
  SiteSectionId,
  SiteSectionPosition,
  SiteSpaceId,
  SiteSpacePosition,
  UpdateGroupInput,
  UpdateSectionInput,
  UpdateSiteSpaceInput
} from "@octavo/domain"
import { Schema } from "effect"
import { BooleanFromString, Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { ShareKeyParam, SitePath } from "./SitesApi.js"
import { SiteSectionGroupObject, SiteSectionObject, SiteSpaceObject } from "./Wire.js"

// A site's structure (conventions-2.md §1.1, §1.2): site spaces, sections, section groups and their order.

const SiteSpacePath = Schema.Struct({ ...SitePath.fields, siteSpaceId: SiteSpaceId })
const SectionPath = Schema.Struct({ ...SitePath.fields, siteSectionId: SiteSectionId })
const GroupPath = Schema.Struct({ ...SitePath.fields, siteSectionGroupId: SiteSectionGroupId })
const GroupSectionPath = Schema.Struct({ ...GroupPath.fields, siteSectionId: SiteSectionId })

/** GitBook's `siteSectionGroupId` is accepted for `sectionGroupId`. */
const AddSectionPayload = Schema.Struct({ ...AddSectionInput.fields, siteSectionGroupId: AddSectionInput.fields.sectionGroupId })
const UpdateSectionPayload = Schema.Struct({ ...UpdateSectionInput.fields, siteSectionGroupId: UpdateSectionInput.fields.sectionGroupId })

const site = "/v1/orgs/:organizationId/sites/:siteId"
const siteSpaces = `${site}/site-spaces`
const sections = `${site}/sections`
const groups = `${site}/section-groups`

export class SiteStructureApi extends HttpApiGroup.make("siteStructure")
  .add(
    HttpApiEndpoint.get("listSiteSpaces", siteSpaces)
      .setPath(SitePath)
      .setUrlParams(Schema.Struct({ ...PageQuery, ...ShareKeyParam, default: Schema.optional(BooleanFromString) }))
      .addSuccess(ListOf(SiteSpaceObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("addSiteSpace", siteSpaces)
      .setPath(SitePath)
      .setPayload(AddSiteSpaceInput)
      .addSuccess(SiteSpaceObject, Created)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.patch("updateSiteSpace", `${siteSpaces}/:siteSpaceId`)
      .setPath(SiteSpacePath)
      .setPayload(UpdateSiteSpaceInput)
      .addSuccess(SiteSpaceObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(HttpApiEndpoint.del("removeSiteSpace", `${siteSpaces}/:siteSpaceId`).setPath(SiteSpacePath).pipe(errors(400, 403, 404, 409, 412)))
  .add(
    HttpApiEndpoint.post("moveSiteSpace", `${siteSpaces}/:siteSpaceId/move`)
      .setPath(SiteSpacePath)
      .setPayload(Schema.Struct({ position: Schema.optional(SiteSpacePosition) }))
      .addSuccess(SiteSpaceObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.get("listSections", sections)
      .setPath(SitePath)
      .setUrlParams(Schema.Struct({ ...PageQuery, ...ShareKeyParam }))
      .addSuccess(ListOf(SiteSectionObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("addSection", sections)
      .setPath(SitePath)
      .setPayload(AddSectionPayload)
      .addSuccess(SiteSectionObject, Created)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.get("getSection", `${sections}/:siteSectionId`)
      .setPath(SectionPath)
      .setUrlParams(Schema.Struct(ShareKeyParam))
      .addSuccess(SiteSectionObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.patch("updateSection", `${sections}/:siteSectionId`)
      .setPath(SectionPath)
      .setPayload(UpdateSectionPayload)
      .addSuccess(SiteSectionObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(HttpApiEndpoint.del("removeSection", `${sections}/:siteSectionId`).setPath(SectionPath).pipe(errors(400, 403, 404, 409, 412)))
  .add(
    HttpApiEndpoint.post("moveSection", `${sections}/:siteSectionId/move`)
      .setPath(SectionPath)
      .setPayload(Schema.Struct({ position: Schema.optional(SiteSectionPosition) }))
      .addSuccess(SiteSectionObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.get("listGroups", groups)
      .setPath(SitePath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(SiteSectionGroupObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("addGroup", groups)
      .setPath(SitePath)
      .setPayload(AddGroupInput)
      .addSuccess(SiteSectionGroupObject, Created)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.patch("updateGroup", `${groups}/:siteSectionGroupId`)
      .setPath(GroupPath)
      .setPayload(UpdateGroupInput)
      .addSuccess(SiteSectionGroupObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(HttpApiEndpoint.del("removeGroup", `${groups}/:siteSectionGroupId`).setPath(GroupPath).pipe(errors(400, 403, 404, 409, 412)))
  .add(
    HttpApiEndpoint.post("addSectionToGroup", `${groups}/:siteSectionGroupId/sections`)
      .setPath(GroupPath)
      .setPayload(Schema.Struct({ sectionId: SiteSectionId }))
      .addSuccess(SiteSectionGroupObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.del("removeSectionFromGroup", `${groups}/:siteSectionGroupId/sections/:siteSectionId`)
      .setPath(GroupSectionPath)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.post("moveGroup", `${groups}/:siteSectionGroupId/move`)
      .setPath(GroupPath)
      .setPayload(Schema.Struct({ position: Schema.optional(SiteSectionPosition) }))
      .addSuccess(SiteSectionGroupObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .middleware(Authentication)
{}
