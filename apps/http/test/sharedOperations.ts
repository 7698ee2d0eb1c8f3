import { type GitBookOperation, operationAtTemplate } from "./conformance.js"

export interface SharedOperation {
  readonly operationId: string
  readonly method: string
  /** Octavo's path template. */
  readonly path: string
}

interface OpenApiPaths {
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

/**
 * The operations Octavo's OpenAPI document (as served at /openapi.json) has in common with GitBook's:
 * the same method at the same path template, parameter names aside. These are the operations whose
 * answers the conformance check holds to GitBook's schemas.
 */
export const sharedOperations = (octavo: OpenApiPaths): ReadonlyArray<SharedOperation> =>
  Object.entries(octavo.paths).flatMap(([path, methods]) =>
    Object.keys(methods).flatMap((method) => {
      const gitbook: GitBookOperation | undefined = operationAtTemplate(method, path)
      return gitbook === undefined ? [] : [{ operationId: gitbook.operationId, method: gitbook.method, path }]
    })
  ).sort((a, b) => a.operationId.localeCompare(b.operationId))

/** The shared operations, one a line: `operationId METHOD /path`. */
export const formatShared = (shared: ReadonlyArray<SharedOperation>): string =>
  shared.map((operation) => `${operation.operationId} ${operation.method} ${operation.path}`).join("\n")
