import type { SamlProvider } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the sso context keeps in memory. */
export const SsoState = slice("@octavo/adapters-memory/sso", {
  /** By provider id. */
  providers: HashMap.empty<string, SamlProvider>()
})
