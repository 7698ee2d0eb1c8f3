import { Schema } from "effect"
import { OrganizationId, TeamId } from "../shared/Ids.js"
import { boundedString, StoredString, unstorableText } from "../shared/Limits.js"
import { MemberRole } from "../shared/Role.js"

// SAML providers and subdomains: limits from api.md's "Limits" table and conventions-2.md §4.

export const SamlProviderId = StoredString.pipe(
  Schema.filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s) || "must be an id (letters, digits, - and _)"),
  Schema.brand("SamlProviderId")
)
export type SamlProviderId = typeof SamlProviderId.Type

/** 1-30 characters once trimmed; the use cases store it trimmed. */
export const SamlProviderLabel = StoredString.pipe(
  Schema.filter((s) => {
    const n = s.trim().length
    return n < 1 ? "must not be empty once trimmed" : n > 30 ? `must be at most 30 characters once trimmed, got ${n}` : true
  }, { jsonSchema: { minLength: 1, maxLength: 30 } })
)

/** The identity provider's entity id. */
export const SamlEntityId = boundedString({ min: 1, max: 1024 })

const loopbackHost = (hostname: string): boolean =>
  hostname === "localhost" || hostname.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === "[::1]"

/** Why a URL cannot be where a provider signs users in, or undefined when it can. */
export const ssoUrlProblem = (text: string): string | undefined => {
  if (text.length > 2048) return `must be at most 2048 characters, got ${text.length}`
  if (/\s/.test(text)) return "must be an absolute https URL (no spaces)"
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return "must be an absolute https URL"
  }
  if (url.protocol === "http:" ? !loopbackHost(url.hostname) : url.protocol !== "https:") {
    return "must be an https URL (http only for loopback hosts such as localhost or 127.0.0.1)"
  }
  if (url.username !== "" || url.password !== "") return "must not hold credentials (user:password@)"
  if (text.includes("#")) return "must not have a fragment (#...)"
  return undefined
}

export const SamlSsoUrl = StoredString.pipe(
  Schema.filter((s) => ssoUrlProblem(s) ?? true, { jsonSchema: { format: "uri", maxLength: 2048 } })
)

/** Any PEM block of a private key: RSA, EC, encrypted or PKCS #8. */
const privateKeyBlock = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/

/**
 * A certificate as sent: at most 10,000 characters, and never a private key. Whether it parses as
 * X.509 is `Certificates`' to say. The failures never quote the text.
 */
export const SamlCertificateText = Schema.String.annotations({
  // The default message quotes what came, which could be a key sent as an array or an object.
  message: () => "must be a string: a PEM certificate or base64 DER"
}).pipe(
  Schema.filter((s) => unstorableText(s) ?? true),
  Schema.filter((s) =>
    s.length > 10_000
      ? `must be at most 10000 characters, got ${s.length}`
      : privateKeyBlock.test(s)
      ? "must be an X.509 certificate, not a private key (the key was not stored; keep it with the identity provider)"
      : true, { jsonSchema: { maxLength: 10_000 } })
)

export const SamlProviderStatus = Schema.Literal("pending", "active")
export type SamlProviderStatus = typeof SamlProviderStatus.Type

export const SamlProvider = Schema.Struct({
  id: SamlProviderId,
  organizationId: OrganizationId,
  label: Schema.String,
  entityID: Schema.optional(Schema.String),
  ssoURL: Schema.optional(Schema.String),
  /** Normalized PEM. */
  certificate: Schema.optional(Schema.String),
  defaultTeamId: Schema.optional(TeamId),
  /** The role of members it adds; null for guests. */
  defaultRole: MemberRole,
  /** `statusOf` the provider, kept with it so storage can list the active ones. */
  status: SamlProviderStatus,
  createdAt: Schema.DateFromSelf
})
export type SamlProvider = typeof SamlProvider.Type

/** Active once the entity id, the URL and the certificate are all set; pending before (conventions-2.md §4). */
export const statusOf = (
  provider: Pick<SamlProvider, "entityID" | "ssoURL" | "certificate">
): SamlProviderStatus =>
  provider.entityID !== undefined && provider.ssoURL !== undefined && provider.certificate !== undefined ? "active" : "pending"

// Inputs of the use cases; the HTTP contracts decode into these.
const providerFields = {
  entityID: Schema.optional(SamlEntityId),
  certificate: Schema.optional(SamlCertificateText),
  ssoURL: Schema.optional(SamlSsoUrl),
  /** A team of the organization; null clears it. */
  defaultTeam: Schema.optional(Schema.NullOr(StoredString)),
  defaultRole: Schema.optional(MemberRole)
}

export const CreateSamlProviderInput = Schema.Struct({ label: SamlProviderLabel, ...providerFields })
export type CreateSamlProviderInput = typeof CreateSamlProviderInput.Type

export const UpdateSamlProviderInput = Schema.Struct({ label: Schema.optional(SamlProviderLabel), ...providerFields })
export type UpdateSamlProviderInput = typeof UpdateSamlProviderInput.Type

/** A subdomain: an organization's hostname (api.md, "SAML provider and subdomain"). */
export const SubdomainName = StoredString.pipe(
  Schema.filter((s) =>
    s.length < 3 || s.length > 32
      ? `must be 3 to 32 characters, got ${s.length}`
      : /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/.test(s) ||
        "must be lower-case letters, digits and inner hyphens (pattern ^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$)", {
    jsonSchema: { minLength: 3, maxLength: 32, pattern: "^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$" }
  })
)
