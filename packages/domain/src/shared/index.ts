import { SecretsLive } from "./Secrets.js"
export * from "./BoundedCache.js"
export * from "./Errors.js"
export * from "./HeavyWork.js"
export * from "./Turns.js"
export * from "./Ids.js"
export * from "./Languages.js"
export * from "./Limits.js"
export * from "./Pagination.js"
export * from "./Position.js"
export * from "./Role.js"
export * from "./Secrets.js"
export * from "./Time.js"
export * from "./UnitOfWork.js"
export * from "./WebFetch.js"
export * from "./Layers.js"

/** The shared kernel's part of the domain (the list in ../Contexts.ts): the secrets every context may keep. */
export const SharedContext = { services: SecretsLive }
