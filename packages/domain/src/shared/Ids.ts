import { Schema } from "effect"
import { StoredString } from "./Limits.js"

const opaqueId = <B extends string>(brand: B) =>
  StoredString.pipe(
    Schema.filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s) || "must be an id (letters, digits, - and _)"),
    Schema.brand(brand)
  )

export const UserId = opaqueId("UserId")
export type UserId = typeof UserId.Type
export const TokenId = opaqueId("TokenId")
export type TokenId = typeof TokenId.Type
export const OrganizationId = opaqueId("OrganizationId")
export type OrganizationId = typeof OrganizationId.Type
export const TeamId = opaqueId("TeamId")
export type TeamId = typeof TeamId.Type
export const InviteId = opaqueId("InviteId")
export type InviteId = typeof InviteId.Type
export const CollectionId = opaqueId("CollectionId")
export type CollectionId = typeof CollectionId.Type
export const SpaceId = opaqueId("SpaceId")
export type SpaceId = typeof SpaceId.Type
export const RevisionId = opaqueId("RevisionId")
export type RevisionId = typeof RevisionId.Type
export const CustomFieldId = opaqueId("CustomFieldId")
export type CustomFieldId = typeof CustomFieldId.Type
export const PageId = opaqueId("PageId")
export type PageId = typeof PageId.Type
export const FileId = opaqueId("FileId")
export type FileId = typeof FileId.Type
export const ChangeRequestId = opaqueId("ChangeRequestId")
export type ChangeRequestId = typeof ChangeRequestId.Type
export const CommentId = opaqueId("CommentId")
export type CommentId = typeof CommentId.Type
export const CommentReplyId = opaqueId("CommentReplyId")
export type CommentReplyId = typeof CommentReplyId.Type
export const SiteId = opaqueId("SiteId")
export type SiteId = typeof SiteId.Type
export const SiteSpaceId = opaqueId("SiteSpaceId")
export type SiteSpaceId = typeof SiteSpaceId.Type
export const SiteSectionId = opaqueId("SiteSectionId")
export type SiteSectionId = typeof SiteSectionId.Type
export const SiteSectionGroupId = opaqueId("SiteSectionGroupId")
export type SiteSectionGroupId = typeof SiteSectionGroupId.Type
export const ShareLinkId = opaqueId("ShareLinkId")
export type ShareLinkId = typeof ShareLinkId.Type
export const SiteRedirectId = opaqueId("SiteRedirectId")
export type SiteRedirectId = typeof SiteRedirectId.Type
