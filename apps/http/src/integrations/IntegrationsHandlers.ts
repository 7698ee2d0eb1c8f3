import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  installationListKey,
  IntegrationInstallations,
  integrationListKey,
  IntegrationPublishing,
  Integrations
} from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { IntegrationsApi } from "./IntegrationsApi.js"
import { presentInstallation, presentIntegration } from "./Present.js"

/** Answers 201 with the `Location` of what a publish made: its endpoint declares 200, for the versions after the first. */
const createdNow = <A extends { readonly urls: { readonly location: string } }>(body: A): Effect.Effect<A> =>
  Effect.as(
    HttpApp.appendPreResponseHandler((_, response) =>
      Effect.succeed(
        response.status === 200
          ? HttpServerResponse.setHeader(HttpServerResponse.setStatus(response, 201), "location", body.urls.location)
          : response
      )
    ),
    body
  )

export const IntegrationsLive = HttpApiBuilder.group(
  OctavoBase.add(IntegrationsApi),
  "integrations",
  (handlers) =>
    Effect.gen(function*() {
      const integrations = yield* Integrations
      const publishing = yield* IntegrationPublishing
      const installations = yield* IntegrationInstallations
      const base = yield* PublicUrl
      const present = presentIntegration(base)
      const presentOne = presentInstallation(base)
      return handlers
        .handle("list", ({ urlParams: { limit, page, ...query } }) =>
          listOf(integrationListKey(query), { limit, page }, (request) =>
            integrations.list(query, request), present))
        .handle("get", ({ path }) =>
          domain(integrations.get(path.integrationName)).pipe(Effect.map(present)))
        .handle("publish", ({ path, payload }) =>
          domain(publishing.publish(path.integrationName, payload)).pipe(
            Effect.flatMap(({ created, view }) => created ? createdNow(present(view)) : Effect.succeed(present(view)))
          ))
        .handle("unpublish", ({ path }) => domain(publishing.unpublish(path.integrationName)))
        .handle("listInstallations", ({ path, urlParams: { externalId, ...page } }) =>
          listOf(
            installationListKey(path.integrationName, externalId),
            page,
            (request) => installations.listInstallations(path.integrationName, { externalId }, request),
            presentOne
          ))
        .handle("install", ({ path, payload }) =>
          domain(installations.install(path.integrationName, payload)).pipe(Effect.flatMap(createdAs(presentOne))))
        .handle("getInstallation", ({ path }) =>
          domain(installations.getInstallation(path.integrationName, path.installationId)).pipe(Effect.map(presentOne)))
        .handle("updateInstallation", ({ path, payload }) =>
          domain(installations.updateInstallation(path.integrationName, path.installationId, payload)).pipe(Effect.map(presentOne)))
        .handle("uninstall", ({ path }) =>
          domain(installations.uninstall(path.integrationName, path.installationId)))
        .handle("asset", ({ path }) =>
          domain(integrations.asset(path.integrationName, path.assetKey)).pipe(
            Effect.map(({ bytes, contentType }) =>
              HttpServerResponse.uint8Array(bytes, {
                contentType,
                // An SVG is shown as an image, never run as a document of this origin.
                headers: {
                  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
                  "cache-control": "private, max-age=31536000, immutable"
                }
              })
            )
          ))
    })
)
