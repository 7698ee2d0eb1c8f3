import type { Migration } from "../shared/Migrations.js"

// users and api_tokens are created by migration 1 ("identity and organizations"), which shipped
// before the contexts had folders and sits with organizations: a shipped migration is never split.
export const identityMigrations: ReadonlyArray<Migration> = []
