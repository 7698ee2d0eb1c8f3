import { X509Certificate } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option } from "effect"
import {
  Actor,
  Certificates,
  Organizations,
  type OrganizationId,
  type PageRequest,
  type SamlProvider,
  SamlProviderId,
  SamlProviderRepository,
  Sso,
  type StoragePorts,
  Teams
} from "../../src/index.js"
import { adminOfNewOrganization, at, makeMember, makeOrganization, makeTeam, makeUser, servicesWith, uniqueId } from "./fixtures.js"
import { walk } from "./walk.js"

// An identity provider's self-signed certificate (EC P-256), made once with `openssl req -x509`.
export const idpCertificate = `-----BEGIN CERTIFICATE-----
MIIBijCCAS+gAwIBAgIUNbGvQX4inFxcU8fbaiPZEIEkJ/QwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPaWRwLm9jdGF2by50ZXN0MB4XDTI2MTEyNDA3MTYyOVoXDTM2
MTEyMTA3MTYyOVowGjEYMBYGA1UEAwwPaWRwLm9jdGF2by50ZXN0MFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAE6mfWpd8Latk+MCHc1IMdj1p8xutWVQPzohx45joI
ZcQYA8iBZXLDscOZD/QFulYGMa5IgzBeRyXzRw6daXSuIKNTMFEwHQYDVR0OBBYE
FP390Q3Brk1nD/ICsjCIwShn9biOMB8GA1UdIwQYMBaAFP390Q3Brk1nD/ICsjCI
wShn9biOMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSQAwRgIhAKKIOtJP
sug/fXvQxzpvEd8fHo+oRzSdjtxT9nPU0E/5AiEAqKrSOxLttBdHlOkT2p5AcXeS
NWgBAY3zt17Gn3/JbDo=
-----END CERTIFICATE-----
`

/** Certificates read by Node's crypto, as the HTTP app reads them (packages/adapters-node/src/sso/Certificates.ts is the one it runs). */
const NodeCertificates = Layer.succeed(Certificates, {
  normalize: (text) => {
    try {
      // Bare base64 is DER; anything else is read as PEM.
      const input = text.includes("-----BEGIN") ? text : Buffer.from(text.replace(/\s+/g, ""), "base64")
      return Either.right(new X509Certificate(input).toString())
    } catch {
      return Either.left("must be an X.509 certificate")
    }
  }
})

const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

const first = (limit = 50): PageRequest => ({ limit, after: Option.none() })

const providerOf = (organizationId: OrganizationId, fields: Partial<SamlProvider> = {}): SamlProvider => ({
  id: SamlProviderId.make(uniqueId("saml")),
  organizationId,
  label: "Okta",
  defaultRole: null,
  status: "pending",
  createdAt: at(1),
  ...fields
})

/** SAML providers (conventions-2.md §4): their storage, and the use cases over it. */
export const ssoContract = (storage: Layer.Layer<StoragePorts>) =>
  layer(
    servicesWith(NodeCertificates).pipe(Layer.provideMerge(storage)),
    { timeout: 60_000 }
  )("sso", (it) => {
    it.effect("providers: stored whole, listed by creation a page at a time, the active ones apart, removed", () =>
      Effect.gen(function*() {
        const providers = yield* SamlProviderRepository
        const organization = yield* makeOrganization()
        const elsewhere = yield* makeOrganization()
        const team = yield* makeTeam(organization)
        const full = providerOf(organization.id, {
          label: "Okta",
          entityID: "http://www.okta.com/exk1",
          ssoURL: "https://acme.okta.com/app/sso/saml",
          certificate: idpCertificate,
          defaultTeamId: team.id,
          defaultRole: "edit",
          status: "active",
          createdAt: at(3)
        })
        const bare = providerOf(organization.id, { label: "Pending", createdAt: at(1) })
        const tie = providerOf(organization.id, {
          label: "Tie",
          createdAt: at(3),
          status: "active",
          entityID: "e",
          ssoURL: "https://x.test",
          certificate: idpCertificate
        })
        for (const p of [full, bare, tie, providerOf(elsewhere.id, { status: "active" })]) yield* providers.insert(p)
        expect(yield* providers.findById(full.id)).toEqual(Option.some(full))
        expect(yield* providers.findById(bare.id)).toEqual(Option.some(bare))
        expect(Option.getOrThrow(yield* providers.findById(bare.id)).entityID).toBeUndefined()
        const listed = yield* walk((page) => providers.list(organization.id, page), 2)
        const byCreation = [bare, ...[full, tie].sort((a, b) => (a.id < b.id ? -1 : 1))]
        expect(listed).toEqual(byCreation)
        expect((yield* providers.list(organization.id, first(1))).count).toBe(3)
        expect((yield* providers.active(organization.id)).map((p) => p.id)).toEqual(byCreation.slice(1).map((p) => p.id))
        const { defaultTeamId: _, ...withoutTeam } = full
        const changed: SamlProvider = { ...withoutTeam, label: "Okta EU", defaultRole: null }
        yield* providers.update(changed)
        expect(yield* providers.findById(full.id)).toEqual(Option.some(changed))
        yield* providers.remove(full.id)
        expect(yield* providers.findById(full.id)).toEqual(Option.none())
        expect((yield* providers.active(organization.id)).map((p) => p.id)).toEqual([tie.id])
        yield* providers.lockOrganization(organization.id)
      }))

    it.effect("an admin registers a provider: pending until entity id, URL and certificate are all set, then active", () =>
      Effect.gen(function*() {
        const sso = yield* Sso
        const { organization, run } = yield* adminOfNewOrganization
        const created = yield* run(sso.create(organization.id, { label: "  Okta  " }))
        expect(created.provider).toMatchObject({ label: "Okta", defaultRole: null, status: "pending" })
        expect(created.provider.certificate).toBeUndefined()
        expect(created.defaultTeam).toBeUndefined()
        const id = created.provider.id
        const half = yield* run(sso.update(organization.id, id, { entityID: "urn:idp", ssoURL: "https://idp.test/sso" }))
        expect(half.provider.status).toBe("pending")
        expect(yield* run(sso.logins(organization.id))).toEqual([])
        // Bare base64 DER is read too, and kept as PEM.
        const der = idpCertificate.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "")
        const active = yield* run(sso.update(organization.id, id, { certificate: der }))
        expect(active.provider.status).toBe("active")
        expect(active.provider.certificate?.replace(/\s+/g, "")).toBe(idpCertificate.replace(/\s+/g, ""))
        expect(active.provider).toMatchObject({ label: "Okta", entityID: "urn:idp", ssoURL: "https://idp.test/sso" })
        expect(yield* run(sso.logins(organization.id))).toEqual([{ id, label: "Okta" }])
        expect(yield* run(sso.get(organization.id, id))).toEqual(active)
        const listed = yield* run(sso.list(organization.id, first()))
        expect(listed.items).toEqual([active])
        const bad = yield* Effect.either(run(sso.update(organization.id, id, { certificate: "not a certificate" })))
        expect(Either.isLeft(bad) && bad.left._tag === "InvalidInput" && bad.left.field).toBe("certificate")
        expect(yield* run(sso.get(organization.id, id))).toEqual(active)
      }))

    it.effect("a default team of this organization is the provider's until it is cleared or deleted", () =>
      Effect.gen(function*() {
        const sso = yield* Sso
        const teams = yield* Teams
        const { organization, run } = yield* adminOfNewOrganization
        const other = yield* makeOrganization()
        const theirs = yield* makeTeam(other)
        const team = yield* run(teams.create(organization.id, { title: "Writers" }))
        const created = yield* run(sso.create(organization.id, { label: "Okta", defaultTeam: team.team.id, defaultRole: "read" }))
        expect(created.defaultTeam?.team.id).toBe(team.team.id)
        expect(created.defaultTeam?.permissions).toEqual({ admin: true, view: true })
        expect(created.provider.defaultRole).toBe("read")
        const id = created.provider.id
        for (const ref of [theirs.id, "no-such-team", "not an id!"]) {
          const refused = yield* Effect.either(run(sso.update(organization.id, id, { defaultTeam: ref })))
          expect(Either.isLeft(refused) && refused.left._tag === "InvalidInput" && refused.left.field).toBe("defaultTeam")
        }
        const cleared = yield* run(sso.update(organization.id, id, { defaultTeam: null, defaultRole: null }))
        expect(cleared.defaultTeam).toBeUndefined()
        expect(cleared.provider.defaultTeamId).toBeUndefined()
        expect(cleared.provider.defaultRole).toBeNull()
        yield* run(sso.update(organization.id, id, { defaultTeam: team.team.id }))
        yield* run(teams.remove(organization.id, team.team.id))
        expect((yield* run(sso.get(organization.id, id))).defaultTeam).toBeUndefined()
      }))

    it.effect("providers are the admins': other members may not, non-members and other organizations do not see them", () =>
      Effect.gen(function*() {
        const sso = yield* Sso
        const { organization, run } = yield* adminOfNewOrganization
        const { provider } = yield* run(sso.create(organization.id, { label: "Okta" }))
        const creator = yield* makeUser()
        yield* makeMember(organization, creator, "create")
        const guest = yield* makeUser()
        yield* makeMember(organization, guest, null)
        const as = (user: typeof creator) => Effect.provideService(Actor, user)
        expect(failureTag(yield* Effect.either(as(creator)(sso.get(organization.id, provider.id))))).toBe("Forbidden")
        expect(failureTag(yield* Effect.either(as(guest)(sso.list(organization.id, first()))))).toBe("Forbidden")
        expect(failureTag(yield* Effect.either(as(creator)(sso.create(organization.id, { label: "Mine" }))))).toBe("Forbidden")
        expect(failureTag(yield* Effect.either(as(creator)(sso.remove(organization.id, provider.id))))).toBe("Forbidden")
        // Every member, guests included, sees the providers to sign in with.
        expect(yield* as(guest)(sso.logins(organization.id))).toEqual([])
        const other = yield* adminOfNewOrganization
        expect(failureTag(yield* Effect.either(other.run(sso.get(organization.id, provider.id))))).toBe("NotFound")
        expect(failureTag(yield* Effect.either(other.run(sso.get(other.organization.id, provider.id))))).toBe("NotFound")
        expect(failureTag(yield* Effect.either(other.run(sso.logins(organization.id))))).toBe("NotFound")
      }))

    it.effect("sso:true needs an active provider (412); the last active one stays while sso is on", () =>
      Effect.gen(function*() {
        const sso = yield* Sso
        const organizations = yield* Organizations
        const { organization, run } = yield* adminOfNewOrganization
        const enforce = (on: boolean) => Effect.either(run(organizations.update(organization.id, { sso: on })))
        expect(failureTag(yield* enforce(true))).toBe("PreconditionFailed")
        const pending = yield* run(sso.create(organization.id, { label: "Half", entityID: "urn:idp" }))
        expect(failureTag(yield* enforce(true))).toBe("PreconditionFailed")
        const settings = { entityID: "urn:idp", ssoURL: "https://idp.test/sso", certificate: idpCertificate }
        const one = yield* run(sso.create(organization.id, { label: "One", ...settings }))
        expect(failureTag(yield* enforce(true))).toBe("success")
        const two = yield* run(sso.create(organization.id, { label: "Two", ...settings }))
        yield* run(sso.remove(organization.id, pending.provider.id))
        yield* run(sso.remove(organization.id, one.provider.id))
        expect(failureTag(yield* Effect.either(run(sso.remove(organization.id, two.provider.id))))).toBe("PreconditionFailed")
        expect((yield* run(sso.logins(organization.id))).map((l) => l.id)).toEqual([two.provider.id])
        expect(failureTag(yield* enforce(false))).toBe("success")
        yield* run(sso.remove(organization.id, two.provider.id))
        expect(failureTag(yield* Effect.either(run(sso.get(organization.id, two.provider.id))))).toBe("NotFound")
      }))

    it.effect("enforcing SSO and removing the last active provider at once: never sso on without an active provider", () =>
      Effect.gen(function*() {
        const sso = yield* Sso
        const organizations = yield* Organizations
        for (let round = 0; round < 4; round++) {
          const { organization, run } = yield* adminOfNewOrganization
          const { provider } = yield* run(
            sso.create(organization.id, { label: "Only", entityID: "urn:idp", ssoURL: "https://idp.test/sso", certificate: idpCertificate })
          )
          const [enforced, removed] = yield* Effect.all([
            Effect.either(run(organizations.update(organization.id, { sso: true }))),
            Effect.either(run(sso.remove(organization.id, provider.id)))
          ], { concurrency: "unbounded" })
          // One of the two wins; the other is refused with 412, whichever order the store took them in.
          expect([failureTag(enforced), failureTag(removed)].sort()).toEqual(["PreconditionFailed", "success"])
          const now = (yield* run(organizations.get(organization.id))).organization.sso
          const active = yield* run(sso.logins(organization.id))
          expect(now && active.length === 0).toBe(false)
        }
      }))

    it.effect("a subdomain is an organization's hostname", () =>
      Effect.gen(function*() {
        const sso = yield* Sso
        const hostname = uniqueId("h").toLowerCase()
        const organization = yield* makeOrganization({ hostname })
        const user = yield* makeUser()
        const as = Effect.provideService(Actor, user)
        expect(yield* as(sso.subdomain(hostname))).toEqual({ subdomain: hostname, organizationId: organization.id })
        expect(failureTag(yield* Effect.either(as(sso.subdomain(`${hostname}x`))))).toBe("NotFound")
        expect(failureTag(yield* Effect.either(as(sso.subdomain("-bad"))))).toBe("InvalidInput")
      }))
  })
