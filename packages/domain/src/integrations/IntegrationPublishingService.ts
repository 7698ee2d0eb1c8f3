import { Effect, Option, ParseResult, Schema } from "effect"
import { BlobStore } from "../content/Ports.js"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import { validate } from "../shared/Limits.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { decodeBase64, hostOfPattern, sniffImage } from "./Images.js"
import {
  type Integration,
  type IntegrationAsset,
  IntegrationName,
  type IntegrationVersion,
  PublishIntegrationInput
} from "./Integration.js"
import { type IntegrationView, makeIntegrationWork, unique } from "./IntegrationWork.js"
import { administersOwner } from "./Policy.js"
import { IntegrationRepository, SecretBox } from "./Ports.js"

/** A publish's answer: whether it made the integration (201) or a new version of it (200). */
export interface Published {
  readonly view: IntegrationView
  readonly created: boolean
}

const hex = (buffer: ArrayBuffer): string => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

const sha256 = (bytes: Uint8Array) =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(bytes))).pipe(Effect.map(hex))

/** A path's integration name, checked as a publish checks it. */
const validName = (name: string): Effect.Effect<string, InvalidInput> =>
  Schema.validate(IntegrationName, { errors: "first" })(name).pipe(
    Effect.mapError((error) =>
      new InvalidInput({
        field: "integrationName",
        rule: ParseResult.ArrayFormatter.formatErrorSync(error)[0]?.message ?? "is invalid"
      })
    )
  )

/** An image of the input: its bytes must be PNG, JPEG, WebP or SVG. */
const readImage = (field: string, base64: string) =>
  Effect.gen(function*() {
    const bytes = decodeBase64(base64)
    const contentType = sniffImage(bytes)
    if (contentType === undefined) {
      return yield* new InvalidInput({ field, rule: "must be a PNG, JPEG, WebP or SVG image in base64" })
    }
    return { bytes, contentType }
  })

/**
 * Publishing integrations (conventions-2.md §7 and decision 8): a publish is an upsert of versions,
 * an unpublish removes the integration with its versions and installations. Scripts are kept as
 * content-addressed blobs and never run in this wave; secrets are sealed before they are stored.
 */
export class IntegrationPublishing extends Effect.Service<IntegrationPublishing>()("@octavo/domain/IntegrationPublishing", {
  effect: Effect.gen(function*() {
    const integrations = yield* IntegrationRepository
    const blobs = yield* BlobStore
    const box = yield* SecretBox
    const uow = yield* UnitOfWork
    const { administered, callerOf, viewOf, visible } = yield* makeIntegrationWork

    const storeBlob = (bytes: Uint8Array) => Effect.tap(sha256(bytes), (key) => blobs.put(key, bytes))

    const storeImage = (image: { readonly bytes: Uint8Array; readonly contentType: IntegrationAsset["contentType"] }) =>
      Effect.map(storeBlob(image.bytes), (key): IntegrationAsset => ({ key, contentType: image.contentType }))

    /** Publishes the first version (created) or the next one of the caller's organization's integration. */
    const publish = (name: string, input: PublishIntegrationInput) =>
      Effect.gen(function*() {
        const requested = yield* validName(name)
        const valid = yield* validate(PublishIntegrationInput)(input)
        const caller = yield* callerOf
        const organization = yield* administered(valid.organization, caller, "publish integrations for this organization")
        const icon = valid.icon === undefined ? undefined : yield* readImage("icon", valid.icon)
        const previews = yield* Effect.forEach(valid.previewImages ?? [], (image, i) => readImage(`previewImages.${i}`, image))
        // Absent keeps what is stored; {} clears it.
        const sealed = valid.secrets === undefined
          ? undefined
          : Object.keys(valid.secrets).length === 0
          ? null
          : yield* box.seal(JSON.stringify(valid.secrets))
        const at = yield* now
        return yield* uow.transaction(Effect.gen(function*() {
          yield* integrations.lock(requested)
          const existing = Option.getOrUndefined(yield* integrations.findByName(requested))
          if (existing !== undefined && existing.ownerId !== organization.id) {
            return yield* new Conflict({ reason: `The integration name ${requested} is taken by another organization` })
          }
          const scriptKey = yield* storeBlob(new TextEncoder().encode(valid.script))
          const sealedSecrets = sealed === undefined ? existing?.sealedSecrets : sealed ?? undefined
          const blocks = valid.blocks ?? []
          const integration: Integration = {
            name: existing?.name ?? requested,
            version: (existing?.version ?? 0) + 1,
            ownerId: organization.id,
            title: valid.title,
            description: valid.description,
            ...(valid.summary !== undefined ? { summary: valid.summary } : {}),
            ...(icon !== undefined ? { icon: yield* storeImage(icon) } : {}),
            previewImages: yield* Effect.forEach(previews, storeImage),
            visibility: valid.visibility ?? "private",
            target: valid.target ?? "all",
            scopes: unique(valid.scopes),
            categories: unique(valid.categories ?? []),
            blocks,
            contentSources: valid.contentSources ?? [],
            externalLinks: valid.externalLinks ?? [],
            ...(valid.configurations !== undefined ? { configurations: valid.configurations } : {}),
            ...(valid.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: valid.contentSecurityPolicy } : {}),
            blockDomains: unique(blocks.flatMap((block) => (block.urlUnfurl ?? []).flatMap((p) => hostOfPattern(p) ?? []))),
            scriptKey,
            ...(sealedSecrets !== undefined ? { sealedSecrets } : {}),
            createdAt: existing?.createdAt ?? at,
            updatedAt: at
          }
          if (existing === undefined) yield* integrations.insert(integration)
          else yield* integrations.update(integration)
          const version: IntegrationVersion = { name: integration.name, version: integration.version, scriptKey, publishedAt: at }
          yield* integrations.addVersion(version)
          return { view: yield* viewOf(integration, caller), created: existing === undefined } satisfies Published
        }))
      })

    /** Removes the integration, its versions and its installations: the owner's admins only. */
    const unpublish = (name: string) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        if (!administersOwner(integration, caller.memberships)) {
          return yield* new Forbidden({ action: "unpublish this integration", required: "the admin role in its organization" })
        }
        yield* uow.transaction(Effect.zipRight(integrations.lock(integration.name), integrations.remove(integration.name)))
      })

    /** The secrets of the integration, opened: for the runtime of a later wave, never answered. */
    const secretsOf = (name: string) =>
      Effect.gen(function*() {
        const found = yield* integrations.findByName(name)
        if (Option.isNone(found)) return yield* new NotFound({ entity: "integration", id: name })
        const sealed = found.value.sealedSecrets
        if (sealed === undefined) return {}
        return JSON.parse(yield* box.open(sealed)) as Readonly<Record<string, string>>
      })

    return { publish, unpublish, secretsOf } as const
  })
}) {}
