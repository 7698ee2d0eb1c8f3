import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Imports } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { ImportApi } from "./ImportApi.js"

export const ImportLive = HttpApiBuilder.group(OctavoBase.add(ImportApi), "import", (handlers) =>
  Effect.map(Imports, (imports) =>
    handlers
      .handle("space", ({ path, payload }) => domain(imports.intoSpace(path.spaceId, payload)))
      .handle("changeRequest", ({ path, payload }) => domain(imports.intoChangeRequest(path.spaceId, path.changeRequestId, payload)))))
