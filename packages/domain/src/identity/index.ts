import { Identity } from "./IdentityService.js"

export * from "./Actor.js"
export * from "./IdentityService.js"
export * from "./Ports.js"
export * from "./User.js"

/** The identity context's use cases, over its ports (and `Acquaintances`, which organizations answer). */
export const IdentityServices = Identity.Default

/** The identity context's part of the domain (the list in ../Contexts.ts). */
export const IdentityContext = { services: IdentityServices }
