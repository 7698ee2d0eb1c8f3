import { classifyAddress, GitRepositoriesLive } from "@octavo/adapters-node"
import { DomainServices, OutsideNotGiven, type StoragePorts } from "@octavo/domain"
import { Effect, Layer } from "effect"
import type { StorageChoice } from "../src/Config.js"
import { ServerInstanceLive } from "../src/gitsync/index.js"
import { storageLayer } from "../src/Storage.js"

/** The domain's services on a storage, with Git Sync reaching loopback remotes: what the Git Sync scripts run on. */
export const gitSyncServices = (choice: StorageChoice, instance: string) =>
  Effect.gen(function*() {
    const storage = yield* Layer.build(storageLayer(choice))
    const shared: Layer.Layer<StoragePorts> = Layer.succeedContext(storage)
    return yield* Layer.build(
      DomainServices.pipe(
        Layer.provideMerge(
          Layer.mergeAll(
            shared,
            OutsideNotGiven,
            GitRepositoriesLive({ allow: ["loopback"], classify: classifyAddress }),
            ServerInstanceLive(instance)
          )
        )
      )
    )
  })
