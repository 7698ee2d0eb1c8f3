import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option } from "effect"
import {
  ChangeRequests,
  Content,
  FetchFailed,
  Imports,
  pageTree,
  Search,
  Spaces,
  type StoragePorts,
  WebFetcher
} from "../../src/index.js"
import { adminWithNewSpace, servicesWith } from "./fixtures.js"

const html = (title: string, body: string) =>
  new TextEncoder().encode(`<html><head><title>${title}</title></head><body><main>${body}</main></body></html>`)
const gif = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 5, 0, 7, 0, 0, 0, 0])

/** A site held in memory: what the fetcher answers for each URL; anything else is a 404. */
const site: Readonly<Record<string, { readonly contentType: string; readonly body: Uint8Array }>> = {
  "https://docs.example/": {
    contentType: "text/html",
    body: html("Home", `<h1>Home</h1><p>See <a href="/setup/">setup</a> and <a href="/gone">gone</a>.</p>`)
  },
  "https://docs.example/setup/": {
    contentType: "text/html",
    body: html("Setup", `<h1>Setup</h1><p>Tune the <a href="disk">disk</a>.</p><img src="/logo.gif" alt="Logo">`)
  },
  "https://docs.example/setup/disk": { contentType: "text/html", body: html("Disks", `<p>Quasar partitions.</p>`) },
  "https://docs.example/logo.gif": { contentType: "image/gif", body: gif },
  // What a site may send that no storage would keep as is: a NUL from the URL, half an emoji at the limit.
  "https://docs.example/odd/a%00b": { contentType: "text/html", body: new TextEncoder().encode("<p>No title here.</p>") },
  "https://docs.example/long/": { contentType: "text/html", body: html(`${"a".repeat(254)}\u{1F600}`, "<p>Long.</p>") },
  [`https://docs.example/${"a".repeat(94)}-bbbbb`]: { contentType: "text/html", body: html("Slug", "<p>Twice.</p>") }
}

const FakeWebFetcher = Layer.succeed(WebFetcher, {
  fetch: (url) =>
    url.startsWith("https://refused.example")
      ? Effect.fail(new FetchFailed({ url, reason: "the address 10.0.0.1 is a private address, which this server may not fetch" }))
      : Effect.succeed({
        url,
        status: site[url] === undefined ? 404 : 200,
        contentType: site[url]?.contentType ?? "text/html",
        body: site[url]?.body ?? new Uint8Array()
      })
})

/** A new organization's empty space to import into, with the services the tests use. */
const newImportSpace = Effect.gen(function*() {
  const spaces = yield* Spaces
  const content = yield* Content
  const imports = yield* Imports
  const { run, space } = yield* adminWithNewSpace("Imported")
  return { content, imports, run, space, spaces }
})

/** Importing through the domain: the same pages, files and counts on every adapter. */
export const importsContract = (storage: Layer.Layer<StoragePorts>) =>
  layer(servicesWith(FakeWebFetcher).pipe(Layer.provideMerge(storage)), { timeout: 60_000 })(
    "imports",
    (it) => {
      it.effect("a website becomes nested pages and files in one revision, searchable at once", () =>
        Effect.gen(function*() {
          const search = yield* Search
          const { content, imports, run, space } = yield* newImportSpace
          const result = yield* run(imports.intoSpace(space.id, { source: "website", url: "https://docs.example/" }))
          expect(result).toMatchObject({ importedResources: 4, totalResources: 5 })
          const view = yield* run(content.current(space.id))
          expect(view.revision.id).toBe(result.revision)
          type Outline = ReadonlyArray<readonly [string, string, Outline]>
          const shape = (nodes: ReturnType<typeof pageTree>): Outline => nodes.map((n) => [n.path, n.page.title, shape(n.pages)] as const)
          expect(shape(pageTree(view.content))).toEqual([["home", "Home", [["home/setup", "Setup", [["home/setup/disk", "Disks", []]]]]]])
          expect([...view.content.files.values()].map((f) => [f.name, f.contentType, f.dimensions])).toEqual([["logo.gif", "image/gif", {
            width: 5,
            height: 7
          }]])
          const setup = [...view.content.pages.values()].find((p) => p.title === "Setup")!
          const disk = [...view.content.pages.values()].find((p) => p.title === "Disks")!
          const logo = [...view.content.files.values()][0]!
          // Links between imported pages and to imported images are stored by id, as every link is.
          expect(setup.markdown).toContain(`[disk](/pages/${disk.id})`)
          expect(setup.markdown).toContain(`![Logo](/files/${logo.id})`)
          const found = yield* run(search.inSpace(space.id, { query: "quasar" }, { limit: 10, after: Option.none() }))
          expect(found.items.map((p) => p.path)).toEqual(["home/setup/disk"])
        }))

      it.effect("a refused or failed first page is invalid input and writes nothing", () =>
        Effect.gen(function*() {
          const { content, imports, run, space } = yield* newImportSpace
          for (const url of ["https://refused.example/", "https://docs.example/missing", "https://docs.example/logo.gif"]) {
            const result = yield* Effect.either(run(imports.intoSpace(space.id, { source: "website", url })))
            expect(Either.isLeft(result) && result.left._tag).toBe("InvalidInput")
          }
          expect((yield* run(content.current(space.id))).revision.id).toBe(space.revisionId)
        }))

      it.effect("titles and slugs made from what a site sends fit the limits of every storage", () =>
        Effect.gen(function*() {
          const { content, imports, run, space } = yield* newImportSpace
          const into = (url: string) => run(imports.intoSpace(space.id, { source: "website", url }))
          yield* into("https://docs.example/odd/a%00b")
          yield* into("https://docs.example/long/")
          const slugged = `https://docs.example/${"a".repeat(94)}-bbbbb`
          yield* into(slugged)
          yield* into(slugged)
          const pages = pageTree((yield* run(content.current(space.id))).content).map((node) => node.page)
          expect(pages.map((p) => p.title)).toEqual(["a b", "a".repeat(254), "Slug", "Slug"])
          const slugs = pages.map((p) => p.slug)
          expect(slugs.slice(2)).toEqual([`${"a".repeat(94)}-bbbbb`, `${"a".repeat(94)}-2`])
          for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/)
        }))

      it.effect("a locked space refuses imports into its change requests too", () =>
        Effect.gen(function*() {
          const changeRequests = yield* ChangeRequests
          const { imports, run, space, spaces } = yield* newImportSpace
          const cr = yield* run(changeRequests.create(space.id, { subject: "Import" }))
          yield* run(spaces.update(space.id, { editMode: "locked" }))
          const refused = yield* Effect.either(
            run(imports.intoChangeRequest(space.id, cr.changeRequest.id, { source: "website", url: "https://docs.example/" }))
          )
          expect(Either.isLeft(refused) && refused.left._tag).toBe("Conflict")
          const after = yield* run(changeRequests.get(space.id, cr.changeRequest.id))
          expect(after.changeRequest.revisionId).toBe(cr.changeRequest.revisionId)
        }))
    }
  )
