import * as dns from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import * as net from "node:net"
import { Writable } from "node:stream"
import { pipeline } from "node:stream/promises"
import * as zlib from "node:zlib"
import { FetchFailed, type FetchedResource, FetchGuard, WebFetcher } from "@octavo/domain"
import { type Context, Effect, Either, Layer } from "effect"

/** Address classes an operator may open to imports; public addresses are always allowed. */
export type NetworkClass = "loopback" | "private" | "link-local"

/** What an address is: public, one of the classes an operator may allow, or never fetchable. */
export type AddressClass = "public" | NetworkClass | "reserved"

export interface WebFetchOptions {
  /** Address classes allowed besides public ones (default none). */
  readonly allow: ReadonlyArray<NetworkClass>
  /** The whole fetch, redirects and body included (default 10 s). */
  readonly timeoutMs: number
  /** Redirects followed before giving up (default 5). */
  readonly maxRedirects: number
}

const defaults: WebFetchOptions = { allow: [], timeoutMs: 10_000, maxRedirects: 5 }

const networkClasses: ReadonlyArray<NetworkClass> = ["loopback", "private", "link-local"]

/** Parses OCTAVO_IMPORT_ALLOW-style text "loopback,private" into classes; unknown words are an error message. */
export const parseNetworkClasses = (text: string): Either.Either<ReadonlyArray<NetworkClass>, string> => {
  const found: Array<NetworkClass> = []
  for (const word of text.split(",").map((w) => w.trim().toLowerCase()).filter((w) => w !== "")) {
    const known = networkClasses.find((c) => c === word)
    if (known === undefined) {
      return Either.left(`unknown network class "${word}": use a comma-separated list of ${networkClasses.join(", ")}`)
    }
    if (!found.includes(known)) found.push(known)
  }
  return Either.right(found)
}

// Address classification ---------------------------------------------------------------------

const subnets = (entries: ReadonlyArray<readonly [address: string, prefix: number]>): net.BlockList => {
  const list = new net.BlockList()
  for (const [address, prefix] of entries) list.addSubnet(address, prefix, net.isIPv6(address) ? "ipv6" : "ipv4")
  return list
}

// A BlockList checks an IPv4-mapped address (::ffff:a.b.c.d) against its IPv4 subnets by itself.
const reserved = subnets([["0.0.0.0", 8], ["224.0.0.0", 4], ["240.0.0.0", 4], ["::", 128], ["ff00::", 8]])
const loopback = subnets([["127.0.0.0", 8], ["::1", 128]])
const linkLocal = subnets([["169.254.0.0", 16], ["fe80::", 10]])
// fec0::/10 (deprecated site-local) is refused with the private ranges: it never names a public host.
const privateNets = subnets([["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["100.64.0.0", 10], ["fc00::", 7], ["fec0::", 10]])
// IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses reach the IPv4 address they carry.
const embedsIpv4 = subnets([["::", 96], ["64:ff9b::", 96]])

/** The eight 16-bit words of a valid IPv6 address (a trailing dotted quad allowed). */
const ipv6Words = (address: string): ReadonlyArray<number> => {
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address)
  const hex = dotted === null
    ? address
    : `${dotted[1]}${((Number(dotted[2]) << 8) | Number(dotted[3])).toString(16)}:${
      ((Number(dotted[4]) << 8) | Number(dotted[5])).toString(16)
    }`
  const [head = "", tail] = hex.split("::")
  const words = (part: string) => part === "" ? [] : part.split(":").map((word) => parseInt(word, 16))
  const left = words(head)
  const right = tail === undefined ? [] : words(tail)
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
}

/** Classifies an IP address (v4, v6, or v6 in brackets); anything that is not one counts as reserved. */
export const classifyAddress = (address: string): AddressClass => {
  // A zone (fe80::1%eth0) says which interface, not which address.
  const bare = (address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address).split("%")[0] ?? ""
  const family = net.isIP(bare)
  if (family === 0) return "reserved"
  const type = family === 4 ? "ipv4" : "ipv6"
  if (reserved.check(bare, type)) return "reserved"
  if (loopback.check(bare, type)) return "loopback"
  if (type === "ipv6" && embedsIpv4.check(bare, type)) {
    const words = ipv6Words(bare)
    const high = words[6] ?? 0
    const low = words[7] ?? 0
    return classifyAddress(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`)
  }
  if (linkLocal.check(bare, type)) return "link-local"
  if (privateNets.check(bare, type)) return "private"
  return "public"
}

const described: Record<Exclude<AddressClass, "public">, string> = {
  loopback: "a loopback address",
  private: "a private network address",
  "link-local": "a link-local address",
  reserved: "an unspecified, multicast or reserved address"
}

// The guarded fetch --------------------------------------------------------------------------

/** A guard refusal or a failure, with the sentence that becomes `FetchFailed.reason`. */
class Refused extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

/** The fetch's deadline passed. */
class TimedOut extends Refused {}

const redirectStatuses: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

const requestHeaders = {
  "user-agent": "Octavo-Importer/1.0",
  accept: "text/html,application/xhtml+xml,image/*;q=0.9,*/*;q=0.5",
  "accept-encoding": "gzip, deflate, br"
}

const duration = (ms: number) => ms < 1000 ? `${ms} ms` : `${ms / 1000} s`

const errorCode = (error: unknown): string =>
  error instanceof Error ? ("code" in error && typeof error.code === "string" ? error.code : error.message) : String(error)

const checkUrl = (url: URL): void => {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Refused("only http and https URLs can be imported")
  if (url.username !== "" || url.password !== "") throw new Refused("URLs with a user name or password cannot be imported")
}

const lookupAll = (hostname: string, signal: AbortSignal): Promise<ReadonlyArray<dns.LookupAddress>> =>
  new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) return onAbort()
    signal.addEventListener("abort", onAbort, { once: true })
    dns.lookup(hostname, { all: true }, (error, addresses) => {
      signal.removeEventListener("abort", onAbort)
      if (error === null) resolve(addresses)
      else if (error.code === "ENOTFOUND" || error.code === "ENODATA") reject(new Refused(`the host ${hostname} could not be found`))
      else reject(new Refused(`the host ${hostname} could not be resolved: ${errorCode(error)}`))
    })
  })

/** The addresses of the URL's host, every one of them in a class this fetcher may reach. */
const vetHost = async (
  hostname: string,
  allow: ReadonlyArray<NetworkClass>,
  signal: AbortSignal
): Promise<ReadonlyArray<dns.LookupAddress>> => {
  const literal = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname
  const family = net.isIP(literal)
  const addresses = family !== 0 ? [{ address: literal, family }] : await lookupAll(literal, signal)
  if (addresses.length === 0) throw new Refused(`the host ${literal} has no address`)
  for (const { address } of addresses) {
    const kind = classifyAddress(address)
    if (kind === "public" || (kind !== "reserved" && allow.includes(kind))) continue
    const which = family !== 0 ? `the address ${address}` : `the address ${address} of ${literal}`
    throw new Refused(`${which} is ${described[kind]}, which this server may not fetch`)
  }
  return addresses
}

/** Connects only to the vetted addresses, so a second DNS answer cannot point elsewhere (DNS rebinding). */
const pinnedLookup = (addresses: ReadonlyArray<dns.LookupAddress>): net.LookupFunction => (_hostname, options, callback) => {
  if (options.all === true) return callback(null, addresses.map(({ address, family }) => ({ address, family })))
  const wanted = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0
  const chosen = addresses.find((a) => a.family === wanted) ?? addresses[0]
  if (chosen === undefined) return callback(new Refused("no vetted address"), "")
  callback(null, chosen.address, chosen.family)
}

/** Sends the GET and resolves with the answer's head; the body is left unread. */
const exchange = (url: URL, addresses: ReadonlyArray<dns.LookupAddress>, signal: AbortSignal): Promise<http.IncomingMessage> =>
  new Promise((resolve, reject) => {
    const options: https.RequestOptions = {
      // Host header and TLS server name stay the URL's host; only the socket goes to the vetted address.
      hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: requestHeaders,
      lookup: pinnedLookup(addresses),
      // A fresh agent per request: no socket is pooled across fetches, and none outlives this one.
      agent: false,
      signal
    }
    const request = url.protocol === "https:" ? https.request(options, resolve) : http.request(options, resolve)
    // Errors after the answer arrived surface on the body instead; rejecting again is then a no-op.
    request.on("error", (error) => reject(new Refused(`could not connect: ${errorCode(error)}`)))
    request.end()
  })

const decoderFor = (encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress => {
  // Sync flush tolerates a stream cut short at the end, as browsers do.
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
    case "deflate":
      return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
    case "br":
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
    default:
      throw new Refused(`the answer is encoded as ${encoding}, which cannot be decoded`)
  }
}

/** Reads the (decoded) body, stopping as soon as more than `maxBytes` have arrived. */
const readBody = async (response: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> => {
  const tooLarge = () => new Refused(`the answer is larger than ${maxBytes} bytes`)
  // Encodings are listed in the order they were applied, so they are undone from the last.
  const encodings = (response.headers["content-encoding"] ?? "").split(",").map((e) => e.trim().toLowerCase())
    .filter((e) => e !== "" && e !== "identity").reverse()
  const length = Number(response.headers["content-length"])
  // Content-Length counts encoded bytes: it settles the question up front only for an unencoded answer.
  if (encodings.length === 0 && Number.isFinite(length) && length > maxBytes) {
    response.destroy()
    throw tooLarge()
  }
  let decoders: ReadonlyArray<NodeJS.ReadWriteStream>
  try {
    decoders = encodings.map(decoderFor)
  } catch (error) {
    response.destroy()
    throw error
  }
  let undecodable = false
  for (const decoder of decoders) decoder.on("error", () => (undecodable = true))
  const chunks: Array<Buffer> = []
  let total = 0
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      total += chunk.length
      if (total > maxBytes) return done(tooLarge())
      chunks.push(chunk)
      done()
    }
  })
  try {
    await pipeline([response, ...decoders, sink], { signal })
  } catch (error) {
    if (error instanceof Refused || signal.aborted) throw error
    if (undecodable) throw new Refused(`the answer could not be decompressed: ${errorCode(error)}`)
    throw new Refused(`the answer broke off: ${errorCode(error)}`)
  }
  return new Uint8Array(Buffer.concat(chunks, total))
}

const mediaType = (header: string | undefined): string => (header ?? "").split(";")[0]?.trim().toLowerCase() ?? ""

/** Follows redirects from `start`, checking the scheme and every address of every hop. */
const follow = async (start: string, maxBytes: number, options: WebFetchOptions, signal: AbortSignal): Promise<FetchedResource> => {
  let url: URL
  try {
    url = new URL(start)
  } catch {
    throw new Refused("this is not a valid URL")
  }
  for (let redirects = 0;; redirects++) {
    // The fragment names a place in the page, not part of the request (and not of the final URL).
    url.hash = ""
    const hop = url
    const guarded = async <A>(step: () => Promise<A>): Promise<A> => {
      try {
        return await step()
      } catch (error) {
        if (redirects > 0 && error instanceof Refused) throw new Refused(`${error.reason} (after a redirect to ${hop.href})`)
        throw error
      }
    }
    await guarded(async () => checkUrl(hop))
    const addresses = await guarded(() => vetHost(hop.hostname, options.allow, signal))
    const response = await guarded(() => exchange(hop, addresses, signal))
    const status = response.statusCode ?? 0
    const location = response.headers.location
    if (redirectStatuses.has(status) && location !== undefined) {
      response.destroy()
      if (redirects >= options.maxRedirects) throw new Refused(`the site redirected more than ${options.maxRedirects} times`)
      try {
        url = new URL(location, url)
      } catch {
        throw new Refused(`the site redirected to an invalid URL: ${location}`)
      }
      continue
    }
    const body = await guarded(() => readBody(response, maxBytes, signal))
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(response.headers["content-type"] ?? "")?.[1]
    return { url: url.href, status, contentType: mediaType(response.headers["content-type"]), charset, body }
  }
}

/** One deadline for the whole fetch; on timeout or interruption every socket is destroyed. */
const fetchGuarded = async (
  start: string,
  maxBytes: number,
  options: WebFetchOptions,
  interrupted: AbortSignal
): Promise<FetchedResource> => {
  const controller = new AbortController()
  const timeout = new TimedOut(`no answer within ${duration(options.timeoutMs)}`)
  const timer = setTimeout(() => controller.abort(timeout), options.timeoutMs)
  const onInterrupt = () => controller.abort(interrupted.reason)
  if (interrupted.aborted) onInterrupt()
  else interrupted.addEventListener("abort", onInterrupt, { once: true })
  try {
    return await follow(start, maxBytes, options, controller.signal)
  } catch (error) {
    throw controller.signal.reason === timeout ? timeout : error
  } finally {
    clearTimeout(timer)
    interrupted.removeEventListener("abort", onInterrupt)
  }
}

const settingsOf = (options?: Partial<WebFetchOptions>): WebFetchOptions => ({
  allow: options?.allow ?? defaults.allow,
  timeoutMs: options?.timeoutMs ?? defaults.timeoutMs,
  maxRedirects: options?.maxRedirects ?? defaults.maxRedirects
})

/** A `WebFetcher` over node:http and node:https, guarded against reaching internal networks (SSRF). */
export const makeWebFetcher = (options?: Partial<WebFetchOptions>): Context.Tag.Service<WebFetcher> => {
  const settings = settingsOf(options)
  return {
    fetch: (url, { maxBytes, timeoutMs }) => {
      const limited = timeoutMs === undefined ? settings : { ...settings, timeoutMs: Math.min(timeoutMs, settings.timeoutMs) }
      return Effect.tryPromise({
        try: (interrupted) => fetchGuarded(url, maxBytes, limited, interrupted),
        catch: (error) =>
          new FetchFailed({
            url,
            reason: error instanceof Refused ? error.reason : `the fetch failed: ${errorCode(error)}`,
            ...(error instanceof TimedOut ? { timedOut: true } : {})
          })
      })
    }
  }
}

/** The fetcher's checks of a URL and its host's addresses, without fetching, under the fetcher's time limit. */
export const makeFetchGuard = (options?: Partial<WebFetchOptions>): Context.Tag.Service<FetchGuard> => {
  const settings = settingsOf(options)
  return {
    check: (start) =>
      Effect.tryPromise({
        try: async (interrupted) => {
          let url: URL
          try {
            url = new URL(start)
          } catch {
            throw new Refused("this is not a valid URL")
          }
          checkUrl(url)
          await vetHost(url.hostname, settings.allow, AbortSignal.any([interrupted, AbortSignal.timeout(settings.timeoutMs)]))
        },
        catch: (error) =>
          new FetchFailed({
            url: start,
            reason: error instanceof Refused ? error.reason : `the URL could not be checked: ${errorCode(error)}`
          })
      })
  }
}

export const WebFetcherLive = (options?: Partial<WebFetchOptions>): Layer.Layer<WebFetcher> =>
  Layer.succeed(WebFetcher, makeWebFetcher(options))

export const FetchGuardLive = (options?: Partial<WebFetchOptions>): Layer.Layer<FetchGuard> =>
  Layer.succeed(FetchGuard, makeFetchGuard(options))
