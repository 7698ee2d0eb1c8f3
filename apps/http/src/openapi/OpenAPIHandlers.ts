import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { OpenAPISpecs, OpenAPISpecVersions, specListKey, specVersionListKey } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { OpenAPIApi } from "./OpenAPIApi.js"
import { openapiPresenters } from "./Present.js"

/** Answers 201 with `Location` instead of the declared 200: a PUT that created the spec. */
const createdByPut = <A extends { readonly urls: { readonly location: string } }>(body: A): Effect.Effect<A> =>
  Effect.as(
    HttpApp.appendPreResponseHandler((_, response) =>
      Effect.succeed(HttpServerResponse.setHeader(HttpServerResponse.setStatus(response, 201), "location", body.urls.location))
    ),
    body
  )

export const OpenAPILive = HttpApiBuilder.group(
  OctavoBase.add(OpenAPIApi),
  "openapi",
  (handlers) =>
    Effect.gen(function*() {
      const specs = yield* OpenAPISpecs
      const versions = yield* OpenAPISpecVersions
      const { presentSpec, presentVersion } = openapiPresenters(yield* PublicUrl)
      return handlers
        .handle("list", ({ path, urlParams }) =>
          listOf(specListKey(path.organizationId), urlParams, (page) =>
            specs.list(path.organizationId, page), presentSpec))
        .handle("create", ({ path, payload }) =>
          domain(specs.create(path.organizationId, payload)).pipe(Effect.flatMap(createdAs(presentSpec))))
        .handle("get", ({ path }) =>
          domain(specs.get(path.organizationId, path.specSlug)).pipe(Effect.map(presentSpec)))
        .handle("put", ({ path, payload }) =>
          domain(specs.put(path.organizationId, path.specSlug, payload)).pipe(
            Effect.flatMap(({ created, view }) =>
              created ? createdByPut(presentSpec(view)) : Effect.succeed(presentSpec(view))
            )
          ))
        .handle("remove", ({ path }) => domain(specs.remove(path.organizationId, path.specSlug)))
        .handle("listVersions", ({ path, urlParams }) =>
          listOf(
            specVersionListKey(path.organizationId, path.specSlug),
            urlParams,
            (page) => versions.listVersions(path.organizationId, path.specSlug, page),
            presentVersion
          ))
        .handle("latestVersion", ({ path }) =>
          domain(versions.latestVersion(path.organizationId, path.specSlug)).pipe(Effect.map(presentVersion)))
        .handle("latestContent", ({ path }) =>
          domain(versions.latestContent(path.organizationId, path.specSlug)))
        .handle("version", ({ path }) =>
          domain(versions.version(path.organizationId, path.specSlug, path.versionId)).pipe(Effect.map(presentVersion)))
    })
)
