import { Layer } from "effect"
import { CollectionPlacement } from "./CollectionPlacementService.js"
import { Collections } from "./CollectionService.js"
import { CustomFields } from "./CustomFieldService.js"
import { SpaceAccess } from "./SpaceAccess.js"
import { SpaceLifecycle } from "./SpaceLifecycleService.js"
import { SpacePlacement } from "./SpacePlacementService.js"
import { Spaces } from "./SpaceService.js"
import { SpaceViews } from "./SpaceViews.js"

export * from "./CollectionPlacementService.js"
export * from "./CollectionService.js"
export * from "./ContentPolicy.js"
export * from "./CustomFieldService.js"
export * from "./Facts.js"
export * from "./Lists.js"
export * from "./Ports.js"
export * from "./Space.js"
export * from "./SpaceAccess.js"
export * from "./SpaceLifecycleService.js"
export * from "./SpacePlacementService.js"
export * from "./SpaceService.js"
export * from "./SpaceViews.js"
export type { CollectionView } from "./SpaceWork.js"
export * from "./Tree.js"

/**
 * The spaces context's use cases: collections, spaces (their lifecycle and placement too), custom fields, and the access to them
 * that later contexts use. Needs `SpaceFactRows` (the storage), `SpaceFactShows` and `SpaceContentLifecycle`, which later contexts contribute.
 */
export const SpacesServices = Layer.mergeAll(
  Collections.Default,
  CollectionPlacement.Default,
  Spaces.Default,
  SpaceLifecycle.Default,
  SpacePlacement.Default,
  CustomFields.Default
).pipe(
  Layer.provideMerge(SpaceViews.Default),
  Layer.provideMerge(SpaceAccess.Default)
)

/** The spaces context's part of the domain (the list in ../Contexts.ts). */
export const SpacesContext = { services: SpacesServices }
