import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as zlib from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import type { FetchFailed } from "@octavo/domain"
import { Effect, Either, Fiber } from "effect"
import { classifyAddress, makeWebFetcher, parseNetworkClasses, type WebFetchOptions } from "../src/shared/WebFetch.js"

/** DNS as an attacker runs it for `rebind.test`: loopback first, a private address on every later question. */
const rebinding = vi.hoisted(() => ({ lookups: 0 }))
vi.mock("node:dns", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:dns")>()
  const lookup = (hostname: string, options: unknown, callback: (...args: ReadonlyArray<unknown>) => void) => {
    if (hostname !== "rebind.test") return (actual.lookup as (...args: ReadonlyArray<unknown>) => void)(hostname, options, callback)
    rebinding.lookups++
    const address = rebinding.lookups === 1 ? "127.0.0.1" : "10.0.0.1"
    process.nextTick(() => callback(null, [{ address, family: 4 }]))
  }
  return { ...actual, default: { ...actual, lookup }, lookup }
})

interface TestServer {
  /** http://127.0.0.1:<port> */
  readonly origin: string
  readonly port: number
  /** Paths requested so far, in order. */
  readonly requested: ReadonlyArray<string>
  /** Request headers, by path. */
  readonly headers: ReadonlyMap<string, http.IncomingHttpHeaders>
  /** Resolves when the socket of the first request is closed. */
  readonly closed: Promise<void>
}

/** Serves `handle` on loopback for the scope of the test. */
const serve = (handle: (request: http.IncomingMessage, response: http.ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: http.Server; readonly test: TestServer }>((resume) => {
      const requested: Array<string> = []
      const headers = new Map<string, http.IncomingHttpHeaders>()
      let onClosed = () => {}
      const closed = new Promise<void>((resolve) => (onClosed = resolve))
      const server = http.createServer((request, response) => {
        const path = request.url ?? "/"
        requested.push(path)
        headers.set(path, request.headers)
        if (requested.length === 1) request.socket.on("close", onClosed)
        handle(request, response)
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port
        resume(Effect.succeed({ server, test: { origin: `http://127.0.0.1:${port}`, port, requested, headers, closed } }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ test }) => test))

/** A loopback port nothing listens on: one that was free a moment ago. */
const freePort = Effect.async<number>((resume) => {
  const server = http.createServer().listen(0, "127.0.0.1", () => {
    const port = (server.address() as AddressInfo).port
    server.close(() => resume(Effect.succeed(port)))
  })
})

const page = "<!doctype html><title>Hello</title><p>Hi</p>"

const site = (request: http.IncomingMessage, response: http.ServerResponse) => {
  const path = request.url ?? "/"
  if (path === "/") {
    response.writeHead(200, { "content-type": "text/HTML; charset=UTF-8" }).end(page)
  } else if (path === "/plain") {
    response.writeHead(200).end("no type")
  } else if (path.startsWith("/hop/")) {
    const left = Number(path.slice("/hop/".length))
    response.writeHead(left % 2 === 0 ? 302 : 308, { location: left === 0 ? "/" : `/hop/${left - 1}` }).end()
  } else if (path === "/loop") {
    response.writeHead(301, { location: "/loop" }).end()
  } else if (path === "/to-metadata") {
    response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end()
  } else if (path === "/to-file") {
    response.writeHead(302, { location: "file:///etc/passwd" }).end()
  } else if (path === "/to-localhost") {
    response.writeHead(307, { location: `http://localhost:${request.socket.localPort}/` }).end()
  } else if (path === "/hundred") {
    response.writeHead(200, { "content-type": "text/plain", "content-length": "100" }).end("x".repeat(100))
  } else if (path === "/chunked") {
    response.writeHead(200, { "content-type": "text/plain" })
    response.write("x".repeat(60))
    response.end("x".repeat(40))
  } else if (path === "/endless") {
    // Writes until the client goes away: only a byte limit that stops reading ends it.
    response.writeHead(200, { "content-type": "application/octet-stream" })
    const chunk = Buffer.alloc(16 * 1024, 1)
    const more = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once("drain", more)
    }
    more()
  } else if (path === "/gzip") {
    response.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(zlib.gzipSync(page))
  } else if (path === "/br") {
    response.writeHead(200, { "content-type": "text/html", "content-encoding": "br" }).end(zlib.brotliCompressSync(page))
  } else if (path === "/deflate") {
    response.writeHead(200, { "content-type": "text/html", "content-encoding": "deflate" }).end(zlib.deflateSync(page))
  } else if (path === "/bomb") {
    // 10 MB of zeros in about 10 kB: the limit applies to what it decompresses to.
    response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(zlib.gzipSync(Buffer.alloc(10_000_000)))
  } else if (path === "/bad-gzip") {
    response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end("not gzip at all")
  } else if (path === "/silent") {
    // Accepts the request and never answers.
  } else if (path === "/slow-body") {
    response.writeHead(200, { "content-type": "text/plain" })
    response.write("a little, then nothing")
  } else {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found")
  }
}

const loopbackOnly: Partial<WebFetchOptions> = { allow: ["loopback"] }

const fetchWith = (options: Partial<WebFetchOptions> | undefined, url: string, maxBytes = 2_097_152) =>
  makeWebFetcher(options).fetch(url, { maxBytes })

const failure = (options: Partial<WebFetchOptions> | undefined, url: string, maxBytes?: number) =>
  fetchWith(options, url, maxBytes).pipe(Effect.flip) as Effect.Effect<FetchFailed>

const text = (body: Uint8Array) => new TextDecoder().decode(body)

describe("WebFetch", () => {
  describe("fetching", () => {
    it.scopedLive("fetches a page from an allowed loopback server, with its status, media type and bytes", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const fetched = yield* fetchWith(loopbackOnly, `${server.origin}/#top`)
        expect(fetched).toEqual({
          url: `${server.origin}/`,
          status: 200,
          contentType: "text/html",
          charset: "UTF-8",
          body: new TextEncoder().encode(page)
        })
        expect(server.headers.get("/")).toMatchObject({
          host: `127.0.0.1:${server.port}`,
          "user-agent": "Octavo-Importer/1.0",
          accept: "text/html,application/xhtml+xml,image/*;q=0.9,*/*;q=0.5",
          "accept-encoding": "gzip, deflate, br"
        })
      }))

    it.scopedLive("reports an answer without a content type as ''", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const fetched = yield* fetchWith(loopbackOnly, `${server.origin}/plain`)
        expect([fetched.contentType, text(fetched.body)]).toEqual(["", "no type"])
      }))

    it.scopedLive("returns a 404 as a success with its status", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const fetched = yield* fetchWith(loopbackOnly, `${server.origin}/missing`)
        expect([fetched.status, fetched.contentType, text(fetched.body)]).toEqual([404, "text/plain", "not found"])
      }))

    it.scopedLive("connects to localhost by name when loopback is allowed", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const fetched = yield* fetchWith(loopbackOnly, `http://localhost:${server.port}/`)
        expect([fetched.url, fetched.status]).toEqual([`http://localhost:${server.port}/`, 200])
        expect(server.headers.get("/")?.host).toBe(`localhost:${server.port}`)
      }))

    it.scopedLive("connects to the address it checked, whatever a second DNS answer would say", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const fetched = yield* fetchWith(loopbackOnly, `http://rebind.test:${server.port}/`)
        expect([fetched.status, rebinding.lookups]).toEqual([200, 1])
        expect(server.headers.get("/")?.host).toBe(`rebind.test:${server.port}`)
      }))

    it.scopedLive("decompresses gzip, deflate and brotli answers", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        for (const path of ["/gzip", "/deflate", "/br"]) {
          const fetched = yield* fetchWith(loopbackOnly, `${server.origin}${path}`)
          expect([path, fetched.contentType, text(fetched.body)]).toEqual([path, "text/html", page])
        }
      }))

    it.scopedLive("fails on a body that claims gzip but is not", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const error = yield* failure(loopbackOnly, `${server.origin}/bad-gzip`)
        expect(error.reason).toMatch(/^the answer could not be decompressed: /)
      }))
  })

  describe("the address guard", () => {
    it.scopedLive("refuses loopback servers unless loopback is allowed, by address and by name, without connecting", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const refused = [
          [`${server.origin}/`, "the address 127.0.0.1 is a loopback address, which this server may not fetch"],
          [`http://[::1]:${server.port}/`, "the address ::1 is a loopback address, which this server may not fetch"],
          [`http://[::ffff:127.0.0.1]:${server.port}/`, "the address ::ffff:7f00:1 is a loopback address, which this server may not fetch"],
          [`http://2130706433:${server.port}/`, "the address 127.0.0.1 is a loopback address, which this server may not fetch"]
        ] as const
        for (const [url, reason] of refused) {
          const error = yield* failure(undefined, url)
          expect([error._tag, error.url, error.reason]).toEqual(["FetchFailed", url, reason])
        }
        const byName = yield* failure(undefined, `http://localhost:${server.port}/`)
        expect(byName.reason).toMatch(
          /^the address (127\.0\.0\.1|::1) of localhost is a loopback address, which this server may not fetch$/
        )
        expect(server.requested).toEqual([])
      }))

    it.live("refuses private and reserved addresses without allow", () =>
      Effect.gen(function*() {
        const refused = [
          ["http://10.0.0.1/", "private network"],
          ["http://192.168.1.1/", "private network"],
          ["http://100.64.0.1/", "private network"],
          ["http://[fd00::1]/", "private network"],
          ["http://0.0.0.0/", "unspecified, multicast or reserved"],
          ["http://[::]/", "unspecified, multicast or reserved"],
          ["http://255.255.255.255/", "unspecified, multicast or reserved"],
          ["http://224.0.0.1/", "unspecified, multicast or reserved"]
        ] as const
        for (const [url, kind] of refused) {
          const error = yield* failure(undefined, url)
          expect([url, error.reason]).toEqual([
            url,
            expect.stringContaining(`is a${kind === "unspecified, multicast or reserved" ? "n" : ""} ${kind} address`)
          ])
        }
      }))

    it.live("refuses the cloud metadata address even with loopback and private allowed, and fast", () =>
      Effect.gen(function*() {
        const started = Date.now()
        const error = yield* failure({ allow: ["loopback", "private"], timeoutMs: 5_000 }, "http://169.254.169.254/latest/meta-data/")
        expect(error.reason).toBe("the address 169.254.169.254 is a link-local address, which this server may not fetch")
        expect(Date.now() - started).toBeLessThan(500)
      }))

    it.live("reserved addresses stay refused whatever is allowed", () =>
      Effect.gen(function*() {
        const error = yield* failure({ allow: ["loopback", "private", "link-local"] }, "http://0.0.0.0/")
        expect(error.reason).toBe("the address 0.0.0.0 is an unspecified, multicast or reserved address, which this server may not fetch")
      }))

    it.scopedLive("refuses other schemes and URLs with credentials", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        for (const url of ["ftp://example.com/file.txt", "file:///etc/passwd", "javascript:alert(1)", "data:text/html,hi"]) {
          const error = yield* failure(loopbackOnly, url)
          expect([url, error.reason]).toEqual([url, "only http and https URLs can be imported"])
        }
        const withCredentials = yield* failure(loopbackOnly, `http://user:secret@127.0.0.1:${server.port}/`)
        expect(withCredentials.reason).toBe("URLs with a user name or password cannot be imported")
        expect((yield* failure(loopbackOnly, "not a url")).reason).toBe("this is not a valid URL")
        expect(server.requested).toEqual([])
      }))
  })

  describe("redirects", () => {
    it.scopedLive("follows a chain of redirects and reports the final URL", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const fetched = yield* fetchWith({ ...loopbackOnly, maxRedirects: 3 }, `${server.origin}/hop/2`)
        expect([fetched.url, fetched.status, text(fetched.body)]).toEqual([`${server.origin}/`, 200, page])
        expect(server.requested).toEqual(["/hop/2", "/hop/1", "/hop/0", "/"])
      }))

    it.scopedLive("follows exactly maxRedirects redirects and fails on one more", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const exact = yield* fetchWith({ ...loopbackOnly, maxRedirects: 3 }, `${server.origin}/hop/2`)
        expect(exact.url).toBe(`${server.origin}/`)
        const over = yield* failure({ ...loopbackOnly, maxRedirects: 2 }, `${server.origin}/hop/2`)
        expect(over.reason).toBe("the site redirected more than 2 times")
        const loop = yield* failure(loopbackOnly, `${server.origin}/loop`)
        expect(loop.reason).toBe("the site redirected more than 5 times")
        expect(server.requested.filter((p) => p === "/loop")).toHaveLength(6)
      }))

    it.scopedLive("checks the address and scheme of every hop", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const metadata = yield* failure(loopbackOnly, `${server.origin}/to-metadata`)
        expect([metadata.url, metadata.reason]).toEqual([
          `${server.origin}/to-metadata`,
          "the address 169.254.169.254 is a link-local address, which this server may not fetch (after a redirect to http://169.254.169.254/latest/meta-data/)"
        ])
        const file = yield* failure(loopbackOnly, `${server.origin}/to-file`)
        expect(file.reason).toBe("only http and https URLs can be imported (after a redirect to file:///etc/passwd)")
        expect(server.requested).toEqual(["/to-metadata", "/to-file"])
      }))
  })

  describe("limits", () => {
    it.scopedLive("refuses a body over maxBytes announced by Content-Length, and takes one of exactly maxBytes", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        expect((yield* fetchWith(loopbackOnly, `${server.origin}/hundred`, 100)).body.length).toBe(100)
        const error = yield* failure(loopbackOnly, `${server.origin}/hundred`, 99)
        expect(error.reason).toBe("the answer is larger than 99 bytes")
      }))

    it.scopedLive("refuses a chunked body once more than maxBytes arrive", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        expect((yield* fetchWith(loopbackOnly, `${server.origin}/chunked`, 100)).body.length).toBe(100)
        expect((yield* failure(loopbackOnly, `${server.origin}/chunked`, 99)).reason).toBe("the answer is larger than 99 bytes")
      }))

    it.scopedLive("stops reading an endless body at maxBytes", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const error = yield* failure({ ...loopbackOnly, timeoutMs: 5_000 }, `${server.origin}/endless`, 1_000_000)
        expect(error.reason).toBe("the answer is larger than 1000000 bytes")
        yield* Effect.promise(() => server.closed)
      }))

    it.scopedLive("applies maxBytes to the decompressed size", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const error = yield* failure(loopbackOnly, `${server.origin}/bomb`, 2_097_152)
        expect(error.reason).toBe("the answer is larger than 2097152 bytes")
      }))

    it.scopedLive("gives up on a server that never answers, and closes the socket", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const started = Date.now()
        const error = yield* failure({ ...loopbackOnly, timeoutMs: 300 }, `${server.origin}/silent`)
        expect(error.reason).toBe("no answer within 300 ms")
        expect(Date.now() - started).toBeLessThan(2_000)
        yield* Effect.promise(() => server.closed)
      }))

    it.scopedLive("counts the body in the timeout", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const error = yield* failure({ ...loopbackOnly, timeoutMs: 300 }, `${server.origin}/slow-body`)
        expect(error.reason).toBe("no answer within 300 ms")
        yield* Effect.promise(() => server.closed)
      }))

    it.scopedLive("says a timeout of a second or more in seconds", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const error = yield* failure({ ...loopbackOnly, timeoutMs: 1_000 }, `${server.origin}/silent`)
        expect(error.reason).toBe("no answer within 1 s")
      }))

    it.live("reports a refused connection", () =>
      Effect.gen(function*() {
        const port = yield* freePort
        const error = yield* failure(loopbackOnly, `http://127.0.0.1:${port}/`)
        expect(error.reason).toBe("could not connect: ECONNREFUSED")
      }))

    it.scopedLive("interruption aborts the request", () =>
      Effect.gen(function*() {
        const server = yield* serve(site)
        const fiber = yield* Effect.fork(fetchWith({ ...loopbackOnly, timeoutMs: 60_000 }, `${server.origin}/silent`))
        while (server.requested.length === 0) yield* Effect.sleep("10 millis")
        yield* Fiber.interrupt(fiber)
        yield* Effect.promise(() => server.closed)
      }))
  })

  describe("classifyAddress", () => {
    it("classifies addresses by their network", () => {
      const cases: ReadonlyArray<readonly [string, ReturnType<typeof classifyAddress>]> = [
        ["93.184.216.34", "public"],
        ["2606:2800:220:1:248:1893:25c8:1946", "public"],
        ["127.0.0.1", "loopback"],
        ["127.255.255.254", "loopback"],
        ["::1", "loopback"],
        ["[::1]", "loopback"],
        ["::ffff:127.0.0.1", "loopback"],
        ["::ffff:7f00:1", "loopback"],
        ["64:ff9b::127.0.0.1", "loopback"],
        ["::127.0.0.1", "loopback"],
        ["169.254.169.254", "link-local"],
        ["::ffff:169.254.169.254", "link-local"],
        ["fe80::1", "link-local"],
        ["fe80::1%eth0", "link-local"],
        ["febf::1", "link-local"],
        ["10.1.2.3", "private"],
        ["172.16.0.1", "private"],
        ["172.31.255.255", "private"],
        ["172.32.0.1", "public"],
        ["192.168.0.1", "private"],
        ["100.64.0.1", "private"],
        ["100.127.255.255", "private"],
        ["100.128.0.1", "public"],
        ["fc00::1", "private"],
        ["fd12:3456::1", "private"],
        ["::ffff:10.0.0.1", "private"],
        ["0.0.0.0", "reserved"],
        ["0.1.2.3", "reserved"],
        ["::", "reserved"],
        ["::ffff:0.0.0.0", "reserved"],
        ["224.0.0.1", "reserved"],
        ["239.255.255.250", "reserved"],
        ["ff02::1", "reserved"],
        ["240.0.0.1", "reserved"],
        ["255.255.255.255", "reserved"],
        ["not an address", "reserved"]
      ]
      expect(cases.map(([address]) => [address, classifyAddress(address)])).toEqual(cases)
    })
  })

  describe("parseNetworkClasses", () => {
    it("reads a comma-separated list of classes", () => {
      expect(parseNetworkClasses("")).toEqual(Either.right([]))
      expect(parseNetworkClasses("loopback,private")).toEqual(Either.right(["loopback", "private"]))
      expect(parseNetworkClasses(" Link-Local , loopback,,loopback ")).toEqual(Either.right(["link-local", "loopback"]))
    })

    it("names an unknown word", () => {
      expect(parseNetworkClasses("loopback,public")).toEqual(
        Either.left(`unknown network class "public": use a comma-separated list of loopback, private, link-local`)
      )
    })
  })
})
