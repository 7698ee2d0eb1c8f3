import { hostname } from "node:os"
import { ServerInstance } from "@octavo/domain"
import { Layer } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { GitSyncApi, SiteGitSyncApi } from "./GitSyncApi.js"
import { GitSyncLive, SiteGitSyncLive } from "./GitSyncHandlers.js"
import { gitSyncFields } from "./Present.js"
import { RecoverGitSync } from "./Jobs.js"

/** Git Sync over HTTP. */
export const GitSyncGroups = OctavoBase.add(GitSyncApi).add(SiteGitSyncApi)
export const GitSyncHandlers = Layer.merge(GitSyncLive, SiteGitSyncLive)

/** This server's name among those sharing the storage: the host, and the port when main knows it. */
export const ServerInstanceLive = (name: string | undefined) => Layer.succeed(ServerInstance, name ?? hostname())

/** The gitsync context's part of the HTTP API (the list in ../Contexts.ts). */
export const GitSyncHttp = {
  groups: GitSyncGroups,
  handlers: GitSyncHandlers,
  spaceFields: [gitSyncFields],
  jobs: [RecoverGitSync]
}
