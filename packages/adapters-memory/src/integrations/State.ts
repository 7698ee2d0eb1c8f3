import type { IntegrationInstallation, Integration, IntegrationVersion } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the integrations context keeps in memory. */
export const IntegrationsState = slice("@octavo/adapters-memory/integrations", {
  /** By lower-cased name: names are unique ignoring case. */
  integrations: HashMap.empty<string, Integration>(),
  /** By (lower-cased name, version). */
  versions: HashMap.empty<string, IntegrationVersion>(),
  /** By installation id. */
  installations: HashMap.empty<string, IntegrationInstallation>()
})
