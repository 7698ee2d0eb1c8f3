import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { createHash } from "node:crypto"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { messageDocument } from "./Pages.js"

/** Pages are plain HTML with one style sheet and one script of this server's; nothing else loads. */
export const readerPolicy = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

export const HTML = "text/html; charset=utf-8"

export const cookie = (
  name: string,
  value: string,
  options: { readonly path: string; readonly maxAge?: number | undefined }
) =>
  [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path}`,
    ...(options.maxAge === undefined ? [] : [`Max-Age=${Math.max(0, Math.floor(options.maxAge))}`]),
    "HttpOnly",
    "SameSite=Lax"
  ].join("; ")

/** The body, compressed when the client takes brotli or gzip and it is worth it. */
export const compressed = (
  request: HttpServerRequest.HttpServerRequest,
  body: string,
  contentType: string,
  headers: Record<string, string>,
  status = 200
) => {
  const bytes = Buffer.from(body, "utf8")
  const accepted = request.headers["accept-encoding"] ?? ""
  const vary = { vary: headers["vary"] === undefined ? "Accept-Encoding" : `Accept-Encoding, ${headers["vary"]}` }
  if (bytes.length < 1024) return HttpServerResponse.uint8Array(bytes, { status, contentType, headers: { ...headers, ...vary } })
  if (/\bbr\b/.test(accepted)) {
    const packed = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
    return HttpServerResponse.uint8Array(packed, { status, contentType, headers: { ...headers, ...vary, "content-encoding": "br" } })
  }
  if (/\bgzip\b/.test(accepted)) {
    return HttpServerResponse.uint8Array(gzipSync(bytes), {
      status,
      contentType,
      headers: { ...headers, ...vary, "content-encoding": "gzip" }
    })
  }
  return HttpServerResponse.uint8Array(bytes, { status, contentType, headers: { ...headers, ...vary } })
}

/** A short page of the reader's own (not found, sign-in needed), never kept by caches. */
export const message = (
  request: HttpServerRequest.HttpServerRequest,
  status: number,
  title: string,
  text: string,
  extra: Record<string, string> = {}
) =>
  compressed(request, messageDocument(title, text).text, HTML, {
    "content-security-policy": readerPolicy,
    "cache-control": "no-store",
    ...extra
  }, status)

export const notFound = (request: HttpServerRequest.HttpServerRequest) =>
  message(request, 404, "Page not found", "There is no page at this address.", { "x-robots-tag": "noindex" })

const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`

/** The body with its ETag, or 304 when the client holds that one already. */
export const withEtag = (
  request: HttpServerRequest.HttpServerRequest,
  body: string,
  contentType: string,
  headers: Record<string, string>
) => {
  const etag = etagOf(body)
  return request.headers["if-none-match"] === etag
    ? HttpServerResponse.empty({ status: 304, headers: { ...headers, etag } })
    : compressed(request, body, contentType, { ...headers, etag })
}

/** A response that sets these cookies (none: the response as it is). */
export const settingCookies = (response: HttpServerResponse.HttpServerResponse, cookies: ReadonlyArray<string>) =>
  cookies.length === 0 ? response : HttpServerResponse.setHeader(response, "set-cookie", cookies as never)
