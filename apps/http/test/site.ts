import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

/** A PNG of 3×2 pixels: the signature and an IHDR chunk are all an importer reads of it. */
export const png = Uint8Array.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  0x49,
  0x48,
  0x44,
  0x52,
  0,
  0,
  0,
  3,
  0,
  0,
  0,
  2,
  8,
  2,
  0,
  0,
  0,
  0,
  0,
  0,
  0
])

const layout = (title: string, main: string) =>
  `<!doctype html>
<html><head><meta charset="utf-8"><title>${title} | Acme</title></head>
<body>
<nav><a href="/docs/">Home</a> <a href="/docs/guide/">Guide</a> <a href="/docs/reference.html">Reference</a> <a href="/blog/post.html">Blog</a></nav>
<main>${main}</main>
<footer>© Acme</footer>
</body></html>`

/** A small documentation site: nested pages, a table, a code block, an image and a broken link. */
const pages: Readonly<Record<string, string>> = {
  "/docs/": layout(
    "Acme Docs",
    `<h1>Acme Docs</h1>
<p>Welcome to <strong>Acme</strong>. Start with the <a href="guide/">guide</a> or the <a href="guide/install.html#steps">installation steps</a>.</p>
<p>The <a href="missing.html">old page</a> is gone.</p>`
  ),
  "/docs/guide/": layout(
    "Guide",
    `<h1>Guide</h1>
<p>Read <a href="install.html">Installation</a> first.</p>
<ul><li>Plan<ul><li>Budget</li></ul></li><li>Build</li></ul>
<pre><code class="language-sh">acme init --yes
acme deploy</code></pre>`
  ),
  "/docs/guide/install.html": layout(
    "Installation",
    `<h1>Installation</h1>
<h2 id="steps">Steps</h2>
<p>Install the zeppelin package.</p>
<img src="/docs/img/diagram.png" alt="Diagram">
<table><thead><tr><th>OS</th><th>Command</th></tr></thead>
<tbody><tr><td>Linux</td><td><code>apt install acme</code></td></tr><tr><td>macOS</td><td><code>brew install acme</code></td></tr></tbody></table>`
  ),
  "/docs/reference.html": layout("Reference", `<h1>Reference</h1><p>Back to <a href="/docs/">the start</a>.</p>`),
  "/blog/post.html": layout("Blog", `<h1>Blog</h1><p>Outside the docs.</p>`)
}

export interface TestSite {
  /** http://127.0.0.1:<port> */
  readonly origin: string
  /** Paths requested so far, in order. */
  readonly requested: ReadonlyArray<string>
}

/** Serves the site on loopback for the scope of the test. */
export const testSite = Effect.acquireRelease(
  Effect.async<{ readonly server: http.Server; readonly site: TestSite }>((resume) => {
    const requested: Array<string> = []
    const server = http.createServer((request, response) => {
      const path = request.url ?? "/"
      requested.push(path)
      if (path === "/latin/") {
        // Latin-1 bytes, said only by the content type.
        const html = "<html><body><main><h1>Caf\u00e9</h1><p>Cr\u00e8me br\u00fbl\u00e9e.</p></main></body></html>"
        response.writeHead(200, { "content-type": "text/html; charset=ISO-8859-1" }).end(Buffer.from(html, "latin1"))
      } else if (path === "/docs/img/diagram.png") {
        response.writeHead(200, { "content-type": "image/png" }).end(png)
      } else if (path === "/docs/data.json") {
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      } else if (path === "/docs") {
        response.writeHead(301, { location: "/docs/" }).end()
      } else if (pages[path] !== undefined) {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(pages[path])
      } else {
        response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>")
      }
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({ server, site: { origin: `http://127.0.0.1:${port}`, requested } }))
    })
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
).pipe(Effect.map(({ site }) => site))
