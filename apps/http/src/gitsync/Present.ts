import { gitSyncInfoOf, type GitSyncState } from "@octavo/domain"
import { presentGitSync } from "../spaces/Present.js"
import type { GitSyncStateObject } from "./Wire.js"

/** A space's sync state on the wire, the same object as its `gitSync`. */
export const presentGitSyncState = (state: GitSyncState): GitSyncStateObject => presentGitSync(state.spaceId, gitSyncInfoOf(state))
