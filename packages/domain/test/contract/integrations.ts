import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option } from "effect"
import {
  BlobStore,
  InstallationId,
  InstallationRepository,
  type Integration,
  type IntegrationInstallation,
  IntegrationInstallations,
  IntegrationPublishing,
  IntegrationRepository,
  Integrations,
  PreconditionFailed,
  SecretBox,
  type StoragePorts
} from "../../src/index.js"
import { adminOfNewOrganization, at, makeOrganization, servicesWith, uniqueId } from "./fixtures.js"
import { walk } from "./walk.js"

/** AES-256-GCM under a key of this run, as the server's adapter seals: iv.ciphertext.tag in hex. */
const testBox = (() => {
  const key = randomBytes(32)
  return SecretBox.of({
    seal: (plaintext) =>
      Effect.sync(() => {
        const iv = randomBytes(12)
        const cipher = createCipheriv("aes-256-gcm", key, iv)
        const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
        return [iv, data, cipher.getAuthTag()].map((b) => b.toString("hex")).join(".")
      }),
    open: (sealed) =>
      Effect.try({
        try: () => {
          const [iv, data, tag] = sealed.split(".").map((part) => Buffer.from(part, "hex"))
          const decipher = createDecipheriv("aes-256-gcm", key, iv!)
          decipher.setAuthTag(tag!)
          return Buffer.concat([decipher.update(data!), decipher.final()]).toString("utf8")
        },
        catch: () => new PreconditionFailed({ reason: "cannot open" })
      })
  })
})()

const first = (limit = 50) => ({ limit, after: Option.none() })

const integration = (fields: Partial<Integration> & Pick<Integration, "name" | "ownerId">): Integration => ({
  version: 1,
  title: "An integration",
  description: "Does things",
  previewImages: [],
  visibility: "public",
  target: "all",
  scopes: ["space:content:read"],
  categories: [],
  blocks: [],
  contentSources: [],
  externalLinks: [],
  blockDomains: [],
  scriptKey: "0".repeat(64),
  createdAt: at(1),
  updatedAt: at(1),
  ...fields
})

const installation = (
  fields: Partial<IntegrationInstallation> & Pick<IntegrationInstallation, "integrationName" | "organizationId">
): IntegrationInstallation => ({
  id: InstallationId.make(uniqueId("n")),
  externalIds: [],
  configuration: {},
  spaceSelection: "all",
  siteSelection: "all",
  createdAt: at(1),
  updatedAt: at(1),
  ...fields
})

const names = (items: ReadonlyArray<Integration>) => items.map((i) => i.name)

const script = "export default () => new Response('hello')"

/** The integrations slice of the storage contract: the repositories, then the use cases over them. */
export const integrationsContract = (storage: Layer.Layer<StoragePorts>) =>
  layer(
    servicesWith(Layer.succeed(SecretBox, testBox)).pipe(Layer.provideMerge(storage)),
    { timeout: 60_000 }
  )("integrations", (it) => {
    it.effect("storage: names are unique ignoring case; updates keep name, owner and creation; shapes keep their key order", () =>
      Effect.gen(function*() {
        const repo = yield* IntegrationRepository
        const owner = yield* makeOrganization()
        const other = yield* makeOrganization()
        const name = uniqueId("Acme-Tool.")
        const stored = integration({
          name,
          ownerId: owner.id,
          summary: "A *summary*",
          icon: { key: "a".repeat(64), contentType: "image/png" },
          categories: ["analytics", "other"],
          blocks: [{ id: "embed", title: "Embed", urlUnfurl: ["https://*.figma.com/file/*"] }],
          blockDomains: ["figma.com"],
          configurations: {
            account: {
              properties: {
                zeta: { type: "string", title: "Zeta", enum: ["a", "b"] },
                alpha: { type: "number", default: 2 },
                mid: { type: "button", callback_url: "https://x.test", button_text: "Go" }
              },
              required: ["zeta"]
            }
          },
          contentSecurityPolicy: { "script-src": "'self'", "default-src": "'none'" },
          sealedSecrets: "sealed-value"
        })
        yield* repo.insert(stored)
        const found = Option.getOrThrow(yield* repo.findByName(name.toUpperCase()))
        expect(found).toEqual(stored)
        expect(Object.keys(found.configurations!.account!.properties)).toEqual(["zeta", "alpha", "mid"])
        expect(Object.keys(found.contentSecurityPolicy as object)).toEqual(["script-src", "default-src"])
        const clash = yield* Effect.flip(repo.insert(integration({ name: name.toLowerCase(), ownerId: other.id })))
        expect(clash._tag).toBe("Conflict")
        yield* repo.update({ ...stored, name: name.toLowerCase(), ownerId: other.id, version: 2, title: "Renamed", createdAt: at(9) })
        const updated = Option.getOrThrow(yield* repo.findByName(name))
        expect([updated.name, updated.ownerId, updated.version, updated.title, updated.createdAt]).toEqual([
          name,
          owner.id,
          2,
          "Renamed",
          at(1)
        ])
        const { sealedSecrets: _, summary: __, ...bare } = stored
        yield* repo.update(bare)
        const cleared = Option.getOrThrow(yield* repo.findByName(name))
        expect([cleared.sealedSecrets, cleared.summary]).toEqual([undefined, undefined])
        yield* repo.addVersion({ name, version: 2, scriptKey: "b".repeat(64), publishedAt: at(3) })
        yield* repo.addVersion({ name, version: 1, scriptKey: "c".repeat(64), publishedAt: at(2) })
        expect((yield* repo.versions(name.toLowerCase())).map((v) => [v.version, v.scriptKey[0]])).toEqual([[1, "c"], [2, "b"]])
        // A string policy is kept as a string.
        const plain = integration({ name: uniqueId("csp"), ownerId: owner.id, contentSecurityPolicy: "default-src 'none'" })
        yield* repo.insert(plain)
        expect(Option.getOrThrow(yield* repo.findByName(plain.name)).contentSecurityPolicy).toBe("default-src 'none'")
      }))

    it.effect("storage: lists by name with every filter and by visibility, page after page", () =>
      Effect.gen(function*() {
        const repo = yield* IntegrationRepository
        const owner = yield* makeOrganization()
        const other = yield* makeOrganization()
        const tag = uniqueId("x").toLowerCase()
        const made = [
          integration({
            name: `${tag}-b`,
            ownerId: owner.id,
            title: "Figma Embeds",
            categories: ["content"],
            blocks: [{ id: "f", title: "Figma" }],
            blockDomains: ["www.figma.com"]
          }),
          integration({ name: `${tag}-a`, ownerId: owner.id, visibility: "private", categories: ["analytics", "marketing"] }),
          integration({
            name: `${tag}-C`,
            ownerId: owner.id,
            visibility: "unlisted",
            contentSources: [{ id: "s", title: "Source", configuration: { componentId: "c" } }]
          }),
          integration({
            name: `${tag}-d`,
            ownerId: other.id,
            title: "Other figma",
            blockDomains: ["figma.com.evil.test"],
            blocks: [{ id: "g", title: "Gx" }]
          }),
          integration({ name: `${tag}-e`, ownerId: other.id, visibility: "private" })
        ]
        for (const each of made) yield* repo.insert(each)
        const list = (filter: Partial<Parameters<typeof repo.list>[0]>, limit = 50) =>
          walk((page) => repo.list({ visibleTo: [], search: tag, ...filter }, page), limit)
        // By name as JavaScript compares strings: "-C" < "-a".
        expect(names(yield* list({ visibleTo: [owner.id] }, 1))).toEqual([`${tag}-C`, `${tag}-a`, `${tag}-b`, `${tag}-d`])
        expect(names(yield* list({}))).toEqual([`${tag}-b`, `${tag}-d`])
        expect(names(yield* list({ visibleTo: [owner.id, other.id] }))).toEqual(made.map((i) => i.name).sort())
        expect(names(yield* list({ visibleTo: [owner.id], search: `${tag}-A` }))).toEqual([`${tag}-a`])
        expect(names(yield* list({ visibleTo: [owner.id], search: undefined, owner: owner.id, category: "marketing" }))).toEqual([
          `${tag}-a`
        ])
        expect(names(yield* list({ visibleTo: [owner.id], search: "FIGMA", owner: owner.id }))).toEqual([`${tag}-b`])
        expect(names(yield* list({ blockDomain: "figma.com" }))).toEqual([`${tag}-b`])
        expect(names(yield* list({ blockDomain: "www.figma.com" }))).toEqual([`${tag}-b`])
        expect(names(yield* list({ blockDomain: "ww.figma.com" }))).toEqual([])
        expect(names(yield* list({ blockDomain: "evil.test" }))).toEqual([`${tag}-d`])
        expect(names(yield* list({ visibleTo: [owner.id], blocks: true }))).toEqual([`${tag}-b`, `${tag}-d`])
        expect(names(yield* list({ visibleTo: [owner.id], blocks: false }))).toEqual([`${tag}-C`, `${tag}-a`])
        expect(names(yield* list({ visibleTo: [owner.id], contentSources: true }))).toEqual([`${tag}-C`])
        expect(names(yield* list({ visibleTo: [owner.id], contentSources: false, owner: other.id }))).toEqual([`${tag}-d`])
        const page = yield* repo.list({ visibleTo: [owner.id], search: tag }, first(2))
        expect([page.count, page.items.length, Option.isSome(page.next)]).toEqual([4, 2, true])
      }))

    it.effect("storage: one installation per integration and organization; filters; removal takes installations and versions", () =>
      Effect.gen(function*() {
        const repo = yield* IntegrationRepository
        const installs = yield* InstallationRepository
        const owner = yield* makeOrganization()
        const a = yield* makeOrganization()
        const b = yield* makeOrganization()
        const name = uniqueId("inst")
        yield* repo.insert(integration({ name, ownerId: owner.id }))
        yield* repo.addVersion({ name, version: 1, scriptKey: "d".repeat(64), publishedAt: at(1) })
        const inA = installation({ integrationName: name, organizationId: a.id, createdAt: at(2), externalIds: ["ext-1", "ext-2"] })
        const inB = installation({
          integrationName: name,
          organizationId: b.id,
          createdAt: at(1),
          configuration: { b: { deep: [1, "x"] }, a: true }
        })
        yield* installs.insert(inA)
        yield* installs.insert(inB)
        const twice = yield* Effect.flip(installs.insert(installation({ integrationName: name, organizationId: a.id })))
        expect(twice._tag).toBe("Conflict")
        const again = yield* Effect.flip(installs.insert({ ...inA, organizationId: owner.id }))
        expect(again.reason).toBe(`A installation with id ${inA.id} exists already`)
        const foundB = Option.getOrThrow(yield* installs.findById(inB.id))
        expect(foundB).toEqual(inB)
        expect(Object.keys(foundB.configuration)).toEqual(["b", "a"])
        const ids = (items: ReadonlyArray<IntegrationInstallation>) => items.map((i) => i.id)
        expect(ids(yield* walk((page) => installs.list(name, {}, page), 1))).toEqual([inB.id, inA.id])
        expect(ids((yield* installs.list(name, { organizations: [a.id] }, first())).items)).toEqual([inA.id])
        expect(ids((yield* installs.list(name, { organizations: [] }, first())).items)).toEqual([])
        expect(ids((yield* installs.list(name, { externalId: "ext-2" }, first())).items)).toEqual([inA.id])
        expect((yield* installs.list(name, { externalId: "ext" }, first())).count).toBe(0)
        yield* installs.update({
          ...inA,
          organizationId: b.id,
          externalIds: ["z"],
          configuration: { k: "v" },
          spaceSelection: "selected",
          updatedAt: at(5)
        })
        expect(Option.getOrThrow(yield* installs.findById(inA.id))).toEqual({
          ...inA,
          externalIds: ["z"],
          configuration: { k: "v" },
          spaceSelection: "selected",
          updatedAt: at(5)
        })
        yield* installs.remove(inB.id)
        expect(yield* installs.findById(inB.id)).toEqual(Option.none())
        yield* repo.remove(name.toUpperCase())
        expect(yield* repo.findByName(name)).toEqual(Option.none())
        expect(yield* installs.findById(inA.id)).toEqual(Option.none())
        expect(yield* repo.versions(name)).toEqual([])
        // The name is free again.
        yield* repo.insert(integration({ name, ownerId: a.id }))
      }))

    it.effect("use cases: publish versions, seal secrets (never stored as given), keep or clear them; scripts are blobs per version", () =>
      Effect.gen(function*() {
        const service = yield* IntegrationPublishing
        const repo = yield* IntegrationRepository
        const blobs = yield* BlobStore
        const { organization, run } = yield* adminOfNewOrganization
        const name = uniqueId("sealed")
        const body = {
          organization: organization.id,
          title: "Sealed",
          description: "Keeps secrets",
          scopes: ["space:content:read" as const],
          script,
          secrets: { API_TOKEN: "s3cr3t-value", _other: "two" }
        }
        const made = yield* run(service.publish(name, body))
        expect([made.created, made.view.integration.version, made.view.permissions]).toEqual([true, 1, { admin: true, install: true }])
        const stored = Option.getOrThrow(yield* repo.findByName(name))
        expect(stored.sealedSecrets).toBeDefined()
        expect(stored.sealedSecrets).not.toContain("s3cr3t-value")
        expect(yield* service.secretsOf(name)).toEqual({ API_TOKEN: "s3cr3t-value", _other: "two" })
        const { secrets: _, ...withoutSecrets } = body
        const second = yield* run(service.publish(name, { ...withoutSecrets, script: `${script}\n// v2` }))
        expect([second.created, second.view.integration.version]).toEqual([false, 2])
        expect(yield* service.secretsOf(name)).toEqual({ API_TOKEN: "s3cr3t-value", _other: "two" })
        yield* run(service.publish(name, { ...body, secrets: {} }))
        expect(Option.getOrThrow(yield* repo.findByName(name)).sealedSecrets).toBeUndefined()
        expect(yield* service.secretsOf(name)).toEqual({})
        const versions = yield* repo.versions(name)
        expect(versions.map((v) => v.version)).toEqual([1, 2, 3])
        expect(versions[0]!.scriptKey).toBe(versions[2]!.scriptKey)
        expect(versions[1]!.scriptKey).not.toBe(versions[0]!.scriptKey)
        const bytes = Option.getOrThrow(yield* blobs.get(versions[1]!.scriptKey))
        expect(new TextDecoder().decode(bytes)).toBe(`${script}\n// v2`)
      }))

    it.effect("use cases: a failed publish or install changes nothing; visibility decides who sees and installs", () =>
      Effect.gen(function*() {
        const service = yield* Integrations
        const publishing = yield* IntegrationPublishing
        const installations = yield* IntegrationInstallations
        const repo = yield* IntegrationRepository
        const { organization, run } = yield* adminOfNewOrganization
        const stranger = yield* adminOfNewOrganization
        const name = uniqueId("vis")
        const publish = (fields: object) =>
          publishing.publish(name, {
            organization: organization.id,
            title: "Visible",
            description: "",
            scopes: [],
            script,
            ...fields
          })
        const bad = yield* Effect.either(run(publish({ title: "x" })))
        expect(Either.isLeft(bad) && bad.left._tag).toBe("InvalidInput")
        expect(yield* repo.findByName(name)).toEqual(Option.none())
        yield* run(publish({ configurations: { account: { properties: { token: { type: "string" } }, required: ["token"] } } }))
        // Private: another organization's admin neither sees nor installs it.
        const hidden = yield* Effect.flip(stranger.run(service.get(name)))
        expect(hidden._tag).toBe("NotFound")
        const notThere = yield* Effect.flip(stranger.run(installations.install(name, { organization: stranger.organization.id })))
        expect(notThere._tag).toBe("NotFound")
        const taken = yield* Effect.flip(stranger.run(publishing.publish(name, {
          organization: stranger.organization.id,
          title: "Mine",
          description: "",
          scopes: [],
          script
        })))
        expect(taken._tag).toBe("Conflict")
        // Public: the stranger installs it once; it waits for its required account setting.
        yield* run(
          publish({ visibility: "public", configurations: { account: { properties: { token: { type: "string" } }, required: ["token"] } } })
        )
        const installed = yield* stranger.run(installations.install(name, { organization: stranger.organization.id }))
        expect(installed.status).toBe("pending")
        const twice = yield* Effect.flip(stranger.run(installations.install(name, { organization: stranger.organization.id })))
        expect(twice._tag).toBe("Conflict")
        const configured = yield* stranger.run(
          installations.updateInstallation(name, installed.installation.id, { configuration: { token: "abc" } })
        )
        expect(configured.status).toBe("active")
        const wrongType = yield* Effect.flip(stranger.run(
          installations.updateInstallation(name, installed.installation.id, { configuration: { token: 5 } })
        ))
        expect(wrongType.message).toBe("configuration.token: must be a string")
        // The owner's admins see every installation; the stranger its own.
        const all = yield* run(installations.listInstallations(name, {}, first()))
        expect(all.items.map((v) => v.installation.organizationId)).toEqual([stranger.organization.id])
        const own = yield* stranger.run(installations.listInstallations(name, {}, first()))
        expect(own.count).toBe(1)
        yield* run(publishing.unpublish(name))
        expect(yield* (yield* InstallationRepository).findById(installed.installation.id)).toEqual(Option.none())
      }))
  })
