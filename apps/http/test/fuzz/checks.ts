import { Effect } from "effect"
import { call } from "../harness.js"
import { labelOf, type Operation } from "./openapi.js"
import type { Outcome } from "./send.js"

/** What an answer breaks: a 5xx, or an error body that is not `{"error":{"code":<status>,"message":"…"}}`. */
export const problemOf = (outcome: Outcome): string | undefined => {
  if (outcome.status < 0) return `no answer (${outcome.text})`
  if (outcome.status >= 500) return `${outcome.status}`
  if (outcome.status < 400) return undefined
  let body: unknown
  try {
    body = JSON.parse(outcome.text)
  } catch {
    return `${outcome.status} with a body that is not JSON: ${outcome.text.slice(0, 80)}`
  }
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error
  const shaped = body !== null && typeof body === "object" && Object.keys(body).join() === "error" &&
    error !== undefined && Object.keys(error).sort().join() === "code,message" && error.code === outcome.status &&
    typeof error.message === "string" && error.message.trim() !== ""
  return shaped ? undefined : `${outcome.status} with a body not of the error shape: ${outcome.text.slice(0, 120)}`
}

/** Reads every GET operation of an organization's world as its admin (lists of the admin's organizations aside: writes elsewhere add to them). */
export const snapshotOf = (operations: ReadonlyArray<Operation>, params: Readonly<Record<string, string>>, token: string) =>
  Effect.forEach(
    operations.filter((o) => o.method === "GET" && o.pathParams.length > 0 && !o.path.startsWith("/v1/email-domains/")),
    (o) => {
      const path = o.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))
      const required = o.query.filter((q) => q.required).map((q) => `${q.name}=welcome`)
      return Effect.map(
        call("GET", required.length === 0 ? path : `${path}?${required.join("&")}`, { token }),
        (answer) => [labelOf(o), answer.status, answer.body] as const
      )
    }
  )
