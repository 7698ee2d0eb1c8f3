import { HttpApiBuilder } from "@effect/platform"
import { Imports } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { domain } from "../Present.js"

export const ImportLive = HttpApiBuilder.group(OctavoApi, "import", (handlers) =>
  Effect.map(Imports, (imports) =>
    handlers
      .handle("space", ({ path, payload }) => domain(imports.intoSpace(path.spaceId, payload)))
      .handle("changeRequest", ({ path, payload }) => domain(imports.intoChangeRequest(path.spaceId, path.changeRequestId, payload)))))
