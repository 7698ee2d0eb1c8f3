import type { ApiToken, User } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the identity context keeps in memory. */
export const IdentityState = slice("@octavo/adapters-memory/identity", {
  users: HashMap.empty<string, User>(),
  tokens: HashMap.empty<string, ApiToken>()
})
