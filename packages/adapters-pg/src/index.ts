// One layer per context, in the order of the contexts, then their composition.
export * from "./shared/index.js"
export * from "./identity/index.js"
export * from "./organizations/index.js"
export * from "./spaces/index.js"
export * from "./content/index.js"
export * from "./search/index.js"
export { migrate, migrations } from "./Migrations.js"
export { MigrationsLive, PgStorage } from "./PgStorage.js"
