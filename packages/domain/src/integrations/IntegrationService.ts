import { Effect, Option, ParseResult, Schema } from "effect"
import { BlobStore } from "../content/Ports.js"
import { Actor } from "../identity/Actor.js"
import type { Member, Organization } from "../organizations/Organization.js"
import type { OrganizationView } from "../organizations/OrganizationService.js"
import { isAdmin, noOrganizationPermissions, organizationPermissions } from "../organizations/Policy.js"
import { MemberRepository, OrganizationRepository, TeamRepository } from "../organizations/Ports.js"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { type Keyset, MAX_LIMIT, type Page, type PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { decodeBase64, hostOfPattern, sniffImage } from "./Images.js"
import {
  InstallationId,
  type InstallationStatus,
  InstallIntegrationInput,
  type Integration,
  type IntegrationAsset,
  type IntegrationInstallation,
  IntegrationListQuery,
  IntegrationName,
  type IntegrationPermissions,
  type IntegrationVersion,
  PublishIntegrationInput,
  UpdateInstallationInput
} from "./Integration.js"
import { administersOwner, canSee, installableIn, installationStatus, integrationPermissions } from "./Policy.js"
import { InstallationRepository, IntegrationRepository, SecretBox } from "./Ports.js"

/** An integration with its owner and what the caller may do with it. */
export interface IntegrationView {
  readonly integration: Integration
  readonly owner: OrganizationView
  readonly permissions: IntegrationPermissions
}

/** A publish's answer: whether it made the integration (201) or a new version of it (200). */
export interface Published {
  readonly view: IntegrationView
  readonly created: boolean
}

export interface InstallationView {
  readonly installation: IntegrationInstallation
  readonly status: InstallationStatus
}

/** The caller's organizations and member records, read once per use case. */
interface Caller {
  readonly organizations: ReadonlyArray<Organization>
  readonly memberships: ReadonlyArray<Member>
}

const hex = (buffer: ArrayBuffer): string => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

const sha256 = (bytes: Uint8Array) =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(bytes))).pipe(Effect.map(hex))

const unique = <A>(values: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(values)]

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

const isName = Schema.is(IntegrationName)
const isInstallationId = Schema.is(InstallationId)

/**
 * Integrations (conventions-2.md §7 and decision 8): publishing as an upsert of versions, reading
 * and listing by visibility, unpublishing, and installations in organizations. Scripts are kept as
 * content-addressed blobs and never run in this wave; secrets are sealed before they are stored.
 */
export class Integrations extends Effect.Service<Integrations>()("@octavo/domain/Integrations", {
  effect: Effect.gen(function*() {
    const integrations = yield* IntegrationRepository
    const installations = yield* InstallationRepository
    const organizations = yield* OrganizationRepository
    const members = yield* MemberRepository
    const teams = yield* TeamRepository
    const blobs = yield* BlobStore
    const box = yield* SecretBox
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork

    const callerOf: Effect.Effect<Caller, never, Actor> = Effect.gen(function*() {
      const actor = yield* Actor
      const found: Array<Organization> = []
      let after: Option.Option<Keyset> = Option.none()
      do {
        const page: Page<Organization> = yield* organizations.listForUser(actor.id, { limit: MAX_LIMIT, after })
        found.push(...page.items)
        after = page.next
      } while (Option.isSome(after))
      const records = yield* members.membershipsOf(actor.id, found.map((o) => o.id))
      return { organizations: found, memberships: records }
    })

    /** The caller's organization named by id or hostname, where it is an admin: a body reference (400), then the role (403). */
    const administered = (reference: string, caller: Caller, action: string) =>
      Effect.gen(function*() {
        const organization = caller.organizations.find((o) => o.id === reference || o.hostname === reference.toLowerCase())
        const member = caller.memberships.find((m) => m.organizationId === organization?.id)
        if (organization === undefined || member === undefined) {
          return yield* new InvalidInput({
            field: "organization",
            rule: "must name an organization you are a member of, by its id or its hostname"
          })
        }
        if (!isAdmin(member)) return yield* new Forbidden({ action, required: "the admin role in that organization" })
        return organization
      })

    const ownerView = (ownerId: OrganizationId, caller: Caller) =>
      Effect.gen(function*() {
        const member = caller.memberships.find((m) => m.organizationId === ownerId)
        const organization = caller.organizations.find((o) => o.id === ownerId) ??
          Option.getOrThrowWith(yield* organizations.findById(ownerId), () => new Error(`integration owner ${ownerId} is missing`))
        if (member === undefined) {
          // Others see who publishes it, not whose addresses join it.
          return { organization: { ...organization, emailDomains: [] }, permissions: noOrganizationPermissions } satisfies OrganizationView
        }
        const owned = yield* teams.list(ownerId, { ownedBy: member.userId }, { limit: 1, after: Option.none() })
        return { organization, permissions: organizationPermissions(member, owned.count > 0) } satisfies OrganizationView
      })

    const viewsOf = (found: ReadonlyArray<Integration>, caller: Caller) =>
      Effect.gen(function*() {
        const owners = new Map<string, OrganizationView>()
        const views: Array<IntegrationView> = []
        for (const integration of found) {
          const owner = owners.get(integration.ownerId) ?? (yield* ownerView(integration.ownerId, caller))
          owners.set(integration.ownerId, owner)
          views.push({ integration, owner, permissions: integrationPermissions(integration, caller.memberships) })
        }
        return views
      })

    const viewOf = (integration: Integration, caller: Caller) => Effect.map(viewsOf([integration], caller), (views) => views[0]!)

    /** The integration as the caller may see it: a private one of another organization does not exist for it. */
    const visible = (name: string, caller: Caller) =>
      Effect.gen(function*() {
        const found = isName(name) ? yield* integrations.findByName(name) : Option.none()
        if (Option.isNone(found) || !canSee(found.value, caller.memberships)) {
          return yield* new NotFound({ entity: "integration", id: name })
        }
        return found.value
      })

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

    const get = (name: string) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        return yield* viewOf(yield* visible(name, caller), caller)
      })

    const list = (query: IntegrationListQuery, page: PageRequest) =>
      Effect.gen(function*() {
        const valid = yield* validate(IntegrationListQuery)(query)
        const caller = yield* callerOf
        const found = yield* integrations.list({
          visibleTo: caller.organizations.map((o) => o.id),
          search: valid.search,
          category: valid.category,
          blockDomain: valid.blockDomain?.toLowerCase(),
          blocks: valid.blocks,
          contentSources: valid.contentSources,
          owner: valid.owner as OrganizationId | undefined
        }, page)
        return { ...found, items: yield* viewsOf(found.items, caller) }
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

    const viewInstallation = (integration: Integration, installation: IntegrationInstallation): InstallationView => ({
      installation,
      status: installationStatus(integration, installation.configuration)
    })

    /** Installs a visible integration in an organization the caller administers, once. */
    const install = (name: string, input: InstallIntegrationInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(InstallIntegrationInput)(input)
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        const organization = yield* administered(valid.organization, caller, "install integrations in this organization")
        if (!installableIn(integration, organization.id)) {
          return yield* new InvalidInput({
            field: "organization",
            rule: "the integration is private to the organization that publishes it and installs only there"
          })
        }
        const at = yield* now
        const id = InstallationId.make(yield* secrets.newId)
        return yield* uow.transaction(Effect.gen(function*() {
          yield* integrations.lock(integration.name)
          // It may have been unpublished meanwhile.
          const current = yield* visible(name, caller)
          const installation: IntegrationInstallation = {
            id,
            integrationName: current.name,
            organizationId: organization.id,
            externalIds: [],
            configuration: {},
            spaceSelection: "all",
            siteSelection: "all",
            createdAt: at,
            updatedAt: at
          }
          yield* installations.insert(installation).pipe(
            Effect.mapError(() => new Conflict({ reason: `The integration ${current.name} is installed in this organization already` }))
          )
          return viewInstallation(current, installation)
        }))
      })

    /**
     * An installation of a visible integration, for the owner's admins and the admins of its
     * organization; its other members are refused (403), anyone else does not see it (404).
     */
    const accessInstallation = (name: string, id: string, action: string) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        const found = isInstallationId(id) ? yield* installations.findById(id) : Option.none()
        if (Option.isNone(found) || found.value.integrationName !== integration.name) {
          return yield* new NotFound({ entity: "installation", id })
        }
        const installation = found.value
        const member = caller.memberships.find((m) => m.organizationId === installation.organizationId)
        if (!administersOwner(integration, caller.memberships) && !(member !== undefined && isAdmin(member))) {
          if (member === undefined) return yield* new NotFound({ entity: "installation", id })
          return yield* new Forbidden({ action, required: "the admin role in its organization" })
        }
        return { integration, installation }
      })

    const getInstallation = (name: string, id: string) =>
      Effect.map(
        accessInstallation(name, id, "read this installation"),
        ({ installation, integration }) => viewInstallation(integration, installation)
      )

    /** Values of the account configuration's declared properties must have their declared type. */
    const checkConfiguration = (integration: Integration, configuration: IntegrationInstallation["configuration"]) =>
      Effect.forEach(Object.entries(configuration), ([key, value]) => {
        const properties = integration.configurations?.account?.properties
        // Own properties only: a key such as `constructor` or `__proto__` names no inherited member.
        const property = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined
        if (property === undefined || value === null || property.type === "button") return Effect.void
        const field = `configuration.${key}`
        if (typeof value !== property.type) return Effect.fail(new InvalidInput({ field, rule: `must be a ${property.type}` }))
        if (property.type === "string" && property.enum !== undefined && !property.enum.includes(value as string)) {
          return Effect.fail(new InvalidInput({ field, rule: `must be one of ${property.enum.join(", ")}` }))
        }
        return Effect.void
      }, { discard: true })

    const updateInstallation = (name: string, id: string, input: UpdateInstallationInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateInstallationInput)(input)
        const { installation, integration } = yield* accessInstallation(name, id, "configure this installation")
        if (valid.configuration !== undefined) yield* checkConfiguration(integration, valid.configuration)
        const updated: IntegrationInstallation = {
          ...installation,
          externalIds: valid.externalIds !== undefined ? unique(valid.externalIds) : installation.externalIds,
          configuration: valid.configuration ?? installation.configuration,
          spaceSelection: valid.space_selection ?? installation.spaceSelection,
          siteSelection: valid.site_selection ?? installation.siteSelection,
          updatedAt: yield* now
        }
        yield* installations.update(updated)
        return viewInstallation(integration, updated)
      })

    const uninstall = (name: string, id: string) =>
      Effect.flatMap(
        accessInstallation(name, id, "uninstall this integration"),
        ({ installation }) => installations.remove(installation.id)
      )

    /** Owner admins list every installation; anyone else who sees the integration, those in organizations it administers. */
    const listInstallations = (name: string, filter: { readonly externalId?: string | undefined }, page: PageRequest) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        const mine = administersOwner(integration, caller.memberships)
          ? undefined
          : caller.memberships.filter(isAdmin).map((m) => m.organizationId)
        const found = yield* installations.list(integration.name, { organizations: mine, externalId: filter.externalId }, page)
        return { ...found, items: found.items.map((installation) => viewInstallation(integration, installation)) }
      })

    /** An image of a visible integration, by its key: its icon or a preview. */
    const asset = (name: string, key: string) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        const found = [...(integration.icon === undefined ? [] : [integration.icon]), ...integration.previewImages].find((a) =>
          a.key === key
        )
        const bytes = found === undefined ? Option.none() : yield* blobs.get(found.key)
        if (found === undefined || Option.isNone(bytes)) return yield* new NotFound({ entity: "asset", id: key })
        return { contentType: found.contentType, bytes: bytes.value }
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

    return {
      publish,
      get,
      list,
      unpublish,
      install,
      getInstallation,
      updateInstallation,
      uninstall,
      listInstallations,
      asset,
      secretsOf
    } as const
  })
}) {}
