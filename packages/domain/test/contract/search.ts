import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Either, Layer, Option, TestClock } from "effect"
import {
  Actor,
  ChangeRequestContent,
  ChangeRequestMerges,
  ChangeRequests,
  LiveEdits,
  type PageRequest,
  type PageResult,
  scoreOf,
  Search,
  SearchIndex,
  SpaceLifecycle,
  Spaces,
  type StoragePorts
} from "../../src/index.js"
import { adminOfNewOrganization, adminWithNewSpace, makeMember, makeUser, type Services } from "./fixtures.js"
import { walk } from "./index.js"

const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

const first: PageRequest = { limit: 50, after: Option.none() }

const titles = (pages: ReadonlyArray<PageResult>) => pages.map((p) => p.title)

const guide = [
  { operation: "insert_page", title: "Installing the CLI", document: { markdown: "Run npm to set it up.\n\n## Requirements\n\nNode 20." } },
  { operation: "insert_page", title: "Configuration", document: { markdown: "After the installation, edit the CLI settings file." } },
  { operation: "insert_page", title: "CLI reference", document: { markdown: "Every command and flag." } },
  {
    operation: "insert_page",
    title: "Troubleshooting",
    document: { markdown: "When the install fails, read the log.\n\n## Network errors\n\nCheck the proxy." }
  },
  { operation: "insert_page", title: "Changelog", document: { markdown: "Release notes." } }
] as const

/** A new organization's space holding the guide's pages. */
const guideSpace = Effect.gen(function*() {
  const liveEdits = yield* LiveEdits
  const { run, space } = yield* adminWithNewSpace("Guide")
  yield* run(liveEdits.editLive(space.id, { changes: [...guide] }))
  return { run, space }
})

/** The search slice of the storage contract: the same answers from every adapter. */
export const searchContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("search", (it) => {
    it.effect("relevance: all words before some, title before body, with stems and the last word as a prefix", () =>
      Effect.gen(function*() {
        const search = yield* Search
        const { run, space } = yield* guideSpace
        const found = yield* run(search.inSpace(space.id, { query: "installing cli" }, first))
        expect(titles(found.items)).toEqual(["Installing the CLI", "Configuration", "CLI reference", "Troubleshooting"])
        expect(found.count).toBe(4)
        // While typing, the last word matches the words it starts; once finished, only its stem.
        expect(titles((yield* run(search.inSpace(space.id, { query: "configura" }, first))).items)).toEqual(["Configuration"])
        expect(titles((yield* run(search.inSpace(space.id, { query: "conf" }, first))).items)).toEqual(["Configuration"])
        expect((yield* run(search.inSpace(space.id, { query: "conf " }, first))).count).toBe(0)
        expect(titles((yield* run(search.inSpace(space.id, { query: "installs." }, first))).items)).toEqual([
          "Installing the CLI",
          "Configuration",
          "Troubleshooting"
        ])
        // Stop words alone find nothing; they are left out of longer queries.
        expect((yield* run(search.inSpace(space.id, { query: "the of and " }, first))).count).toBe(0)
        expect(titles((yield* run(search.inSpace(space.id, { query: "the changelog" }, first))).items)).toEqual(["Changelog"])
      }))

    it.effect("results: matching sections with anchors and snippets; paging returns each page once", () =>
      Effect.gen(function*() {
        const search = yield* Search
        const { run, space } = yield* guideSpace
        const found = yield* run(search.inSpace(space.id, { query: "proxy network" }, first))
        expect(found.items).toEqual([{
          pageId: found.items[0]?.pageId,
          title: "Troubleshooting",
          description: "",
          path: "troubleshooting",
          ancestors: [],
          score: scoreOf(2, 0),
          rank: 1,
          resultType: "section",
          sections: [{
            id: "network-errors",
            anchor: "network-errors",
            title: "Network errors",
            body: "Check the proxy.",
            score: 2,
            resultType: "section"
          }]
        }])
        // A page found by its title alone shows its first section.
        const byTitle = yield* run(search.inSpace(space.id, { query: "changelog" }, first))
        expect(byTitle.items[0]?.sections.map((s) => s.body)).toEqual(["Release notes."])
        const all = yield* run(search.inSpace(space.id, { query: "cli install troubleshooting changelog" }, first))
        expect(all.count).toBe(5)
        const walked = yield* walk(
          (request) => run(search.inSpace(space.id, { query: "cli install troubleshooting changelog" }, request)),
          2
        )
        expect(walked.map((p) => p.pageId)).toEqual(all.items.map((p) => p.pageId))
        // Paged or not, a page keeps its rank among all the pages found.
        expect(walked.map((p) => p.rank)).toEqual([1, 2, 3, 4, 5])
        // Found by its title: the page matched on its own fields; its first section bears the title.
        expect(byTitle.items[0]?.resultType).toBe("page")
        expect(byTitle.items[0]?.sections.map((s) => [s.title, s.score, s.resultType])).toEqual([["Changelog", 1, "section"]])
      }))

    it.effect("freshness: live edits, moves and deletions show at once; a change request only once merged", () =>
      Effect.gen(function*() {
        const liveEdits = yield* LiveEdits
        const changeRequests = yield* ChangeRequests
        const changeRequestContent = yield* ChangeRequestContent
        const merges = yield* ChangeRequestMerges
        const search = yield* Search
        const { run, space } = yield* adminWithNewSpace("Guide")
        const created = yield* run(liveEdits.editLive(space.id, {
          changes: [{ operation: "insert_page", title: "Platform", slug: "platform" }, {
            operation: "insert_page",
            title: "Kubernetes",
            document: { markdown: "Deploy with helm charts." }
          }]
        }))
        const pages = [...created.content.pages.values()]
        const platform = pages.find((p) => p.slug === "platform")!
        const kubernetes = pages.find((p) => p.slug === "kubernetes")!
        const helm = () => Effect.map(run(search.inSpace(space.id, { query: "helm" }, first)), (r) => r.items.map((p) => p.path))
        expect(yield* helm()).toEqual(["kubernetes"])
        // Moving a page moves what is found under it; renaming a parent renames the paths below.
        yield* run(liveEdits.editLive(space.id, { changes: [{ operation: "update_page", page: kubernetes.id, into: platform.id }] }))
        expect(yield* helm()).toEqual(["platform/kubernetes"])
        yield* run(liveEdits.editLive(space.id, { changes: [{ operation: "update_page", page: platform.id, slug: "deploy" }] }))
        expect(yield* helm()).toEqual(["deploy/kubernetes"])
        const cr = yield* run(changeRequests.create(space.id, { subject: "Rewrite" }))
        yield* run(changeRequestContent.edit(space.id, cr.changeRequest.id, {
          changes: [{ operation: "update_page", page: kubernetes.id, document: { markdown: "Deploy with kustomize." } }]
        }))
        expect(yield* helm()).toEqual(["deploy/kubernetes"])
        yield* run(merges.merge(space.id, cr.changeRequest.id))
        expect(yield* helm()).toEqual([])
        expect(titles((yield* run(search.inSpace(space.id, { query: "kustomize" }, first))).items)).toEqual(["Kubernetes"])
        yield* run(liveEdits.editLive(space.id, { changes: [{ operation: "delete_page", page: platform.id }] }))
        expect((yield* run(search.inSpace(space.id, { query: "kustomize" }, first))).count).toBe(0)
      }))

    it.effect("results: description, the pages above from the top down, following renames and moves; ranks across spaces", () =>
      Effect.gen(function*() {
        const liveEdits = yield* LiveEdits
        const spaces = yield* Spaces
        const search = yield* Search
        const { organization, run, space } = yield* adminWithNewSpace("Platform")
        const written = yield* run(liveEdits.editLive(space.id, {
          changes: [{ operation: "insert_page", title: "Operations", slug: "operations" }, {
            operation: "insert_page",
            title: "Kubernetes",
            slug: "kubernetes"
          }]
        }))
        const byTitle = (title: string) => [...written.content.pages.values()].find((p) => p.title === title)!
        const [operations, kubernetes] = [byTitle("Operations"), byTitle("Kubernetes")]
        yield* run(liveEdits.editLive(space.id, {
          changes: [{ operation: "update_page", page: kubernetes.id, into: operations.id }, {
            operation: "insert_page",
            title: "Helm",
            description: "Charts for the cluster.",
            into: kubernetes.id,
            document: { markdown: "Install the helm chart." }
          }]
        }))
        const helm = () => Effect.map(run(search.inSpace(space.id, { query: "helm" }, first)), (r) => r.items[0])
        expect(yield* helm()).toMatchObject({
          title: "Helm",
          description: "Charts for the cluster.",
          path: "operations/kubernetes/helm",
          ancestors: [{ id: operations.id, title: "Operations" }, { id: kubernetes.id, title: "Kubernetes" }]
        })
        // Found by its description alone: no section matched, the first one stands for the page.
        const byDescription = yield* run(search.inSpace(space.id, { query: "cluster" }, first))
        expect(byDescription.items.map((p) => [p.title, p.resultType, p.sections.map((s) => [s.score, s.resultType])])).toEqual([
          ["Helm", "page", [[0, "page"]]]
        ])
        yield* run(liveEdits.editLive(space.id, { changes: [{ operation: "update_page", page: operations.id, title: "Ops" }] }))
        expect((yield* helm())?.ancestors.map((a) => a.title)).toEqual(["Ops", "Kubernetes"])
        yield* run(liveEdits.editLive(space.id, { changes: [{ operation: "update_page", page: kubernetes.id, into: null }] }))
        expect((yield* helm())?.ancestors).toEqual([{ id: kubernetes.id, title: "Kubernetes" }])
        // Across spaces, pages are ranked together and keep their rank under their space.
        const other = (yield* run(spaces.create(organization.id, { title: "Other" }))).space
        yield* run(liveEdits.editLive(other.id, { changes: [{ operation: "insert_page", title: "Helm charts" }] }))
        const found = yield* run(search.inOrganization(organization.id, { query: "helm chart" }, first))
        expect(found.items.map((r) => [r.space.title, r.score, r.pages.map((p) => [p.title, p.rank, p.score])])).toEqual([
          ["Other", scoreOf(2, 2), [["Helm charts", 1, scoreOf(2, 2)]]],
          ["Platform", scoreOf(2, 1), [["Helm", 2, scoreOf(2, 1)]]]
        ])
      }))

    it.effect("organization: readable spaces only, best first with their pages; deleted spaces are not searched", () =>
      Effect.gen(function*() {
        const spaces = yield* Spaces
        const lifecycle = yield* SpaceLifecycle
        const liveEdits = yield* LiveEdits
        const search = yield* Search
        const { organization, run } = yield* adminOfNewOrganization
        const api = (yield* run(spaces.create(organization.id, { title: "API" }))).space
        const handbook = (yield* run(spaces.create(organization.id, { title: "Handbook" }))).space
        yield* run(spaces.create(organization.id, { title: "Empty" }))
        yield* run(
          liveEdits.editLive(api.id, {
            changes: [{ operation: "insert_page", title: "Webhooks", document: { markdown: "Retries of webhooks." } }]
          })
        )
        yield* run(
          liveEdits.editLive(handbook.id, {
            changes: [{ operation: "insert_page", title: "Holidays", document: { markdown: "Webhooks are an API thing." } }]
          })
        )
        const found = yield* run(search.inOrganization(organization.id, { query: "webhooks" }, first))
        expect(found.items.map((r) => [r.space.title, titles(r.pages)])).toEqual([["API", ["Webhooks"]], ["Handbook", ["Holidays"]]])
        expect(found.count).toBe(2)
        // Each space comes with its best pages: the first of its own pages.
        const index = yield* SearchIndex
        const webhook = [{ lexeme: "webhook", prefix: true }]
        const best = yield* index.spaces([api.id, handbook.id], webhook, 1, first)
        expect(best.items.map((hit) => hit.spaceId)).toEqual([api.id, handbook.id])
        expect(best.items[0]?.pages).toEqual((yield* index.pages([api.id], webhook, { limit: 1, after: Option.none() })).items)
        expect(best.items[1]?.pages.map((hit) => hit.document.title)).toEqual(["Holidays"])
        const duplicate = yield* run(lifecycle.duplicate(api.id))
        expect((yield* run(search.inOrganization(organization.id, { query: "webhooks" }, first))).count).toBe(3)
        yield* run(lifecycle.delete(duplicate.space.id))
        yield* run(lifecycle.delete(handbook.id))
        expect((yield* run(search.inOrganization(organization.id, { query: "webhooks" }, first))).items.map((r) => r.space.title)).toEqual([
          "API"
        ])
        yield* run(lifecycle.restore(handbook.id))
        expect((yield* run(search.inOrganization(organization.id, { query: "webhooks" }, first))).count).toBe(2)
        // Purging a space forgets its documents.
        yield* TestClock.adjust(Duration.days(8))
        yield* lifecycle.purgeExpired
        expect((yield* index.pages([duplicate.space.id], [{ lexeme: "webhook", prefix: false }], first)).count).toBe(0)
        // Another organization's member sees nothing of it; a guest may not search it.
        const stranger = yield* makeUser()
        const asStranger = Effect.provideService(Actor, stranger)
        expect(failureTag(yield* Effect.either(asStranger(search.inOrganization(organization.id, { query: "webhooks" }, first))))).toBe(
          "NotFound"
        )
        expect(failureTag(yield* Effect.either(asStranger(search.inSpace(api.id, { query: "webhooks" }, first))))).toBe("NotFound")
        const guest = yield* makeUser()
        yield* makeMember(organization, guest, null)
        const asGuest = Effect.provideService(Actor, guest)
        expect(failureTag(yield* Effect.either(asGuest(search.inOrganization(organization.id, { query: "webhooks" }, first))))).toBe(
          "Forbidden"
        )
        expect(failureTag(yield* Effect.either(asGuest(search.inSpace(api.id, { query: "webhooks" }, first))))).toBe("NotFound")
      }))

    it.effect("a space whose documents lag behind its revision is reindexed", () =>
      Effect.gen(function*() {
        const search = yield* Search
        const index = yield* SearchIndex
        const { run, space } = yield* guideSpace
        const proxy = () => Effect.map(run(search.inSpace(space.id, { query: "proxy " }, first)), (r) => r.count)
        expect(yield* proxy()).toBe(1)
        expect(yield* index.staleSpaces(1000)).not.toContain(space.id)
        // As if the space's content were older than its index.
        yield* index.removeSpace(space.id)
        expect(yield* proxy()).toBe(0)
        expect(yield* index.staleSpaces(1000)).toContain(space.id)
        expect(yield* search.reindexStale).toBeGreaterThanOrEqual(1)
        expect(yield* proxy()).toBe(1)
        expect(yield* index.staleSpaces(1000)).toEqual([])
      }))

    it.effect("an edit to a space whose documents lag behind indexes the whole space, not only the page edited", () =>
      Effect.gen(function*() {
        const search = yield* Search
        const index = yield* SearchIndex
        const liveEdits = yield* LiveEdits
        const { run, space } = yield* guideSpace
        // As if the space's content were written before search existed, and edited before the job ran.
        yield* index.removeSpace(space.id)
        yield* run(liveEdits.editLive(space.id, { changes: [{ operation: "insert_page", title: "Glossary" }] }))
        const count = (query: string) => Effect.map(run(search.inSpace(space.id, { query }, first)), (r) => r.count)
        expect([yield* count("glossary"), yield* count("proxy ")]).toEqual([1, 1])
        expect(yield* index.staleSpaces(1000)).not.toContain(space.id)
      }))

    it.effect("a page of a million characters of distinct words is indexed up to the lexeme budget on every storage", () =>
      Effect.gen(function*() {
        const search = yield* Search
        const liveEdits = yield* LiveEdits
        const { run, space } = yield* guideSpace
        // 15,800 distinct words of 62 Cyrillic letters (two bytes each in UTF-8): about 2 MB of
        // lexemes, twice what PostgreSQL takes in one tsvector, in under a million characters.
        const letter = (n: number) => String.fromCharCode(0x430 + n)
        const word = (i: number) =>
          Array.from({ length: 62 }, (_, k) => letter(k < 3 ? Math.floor(i / 32 ** k) % 32 : (i + k) % 32)).join("")
        const markdown = Array.from({ length: 15_800 }, (_, i) => word(i)).join(" ")
        yield* run(
          liveEdits.editLive(space.id, { changes: [{ operation: "insert_page", title: "Giant lexicon", document: { markdown } }] })
        )
        const count = (query: string) => Effect.map(run(search.inSpace(space.id, { query }, first)), (r) => r.count)
        expect([yield* count("giant"), yield* count(`${word(0)} `), yield* count(`${word(15_799)} `)]).toEqual([1, 1, 0])
      }))

    it.effect("a result reads the first 20,000 characters of a page to pick its sections", () =>
      Effect.gen(function*() {
        const search = yield* Search
        const liveEdits = yield* LiveEdits
        const { run, space } = yield* guideSpace
        const filler = "lorem ipsum ".repeat(2_000)
        const markdown = `## Early\n\nA walrus.\n\n## Filler\n\n${filler}\n\n## Late\n\nAnother walrus.`
        yield* run(liveEdits.editLive(space.id, { changes: [{ operation: "insert_page", title: "Long read", document: { markdown } }] }))
        const found = yield* run(search.inSpace(space.id, { query: "walrus" }, first))
        // Found by its whole text; the section past the budget is not read for the result.
        expect(found.items.map((p) => [p.title, p.sections.map((s) => s.title)])).toEqual([["Long read", ["Early"]]])
      }))

    it.effect("limits: the query is up to 512 characters; an empty one finds nothing", () =>
      Effect.gen(function*() {
        const search = yield* Search
        const { organization, run, space } = yield* adminWithNewSpace("Guide")
        expect((yield* run(search.inSpace(space.id, { query: "" }, first))).count).toBe(0)
        expect((yield* run(search.inOrganization(organization.id, { query: "" }, first))).count).toBe(0)
        expect(failureTag(yield* Effect.either(run(search.inSpace(space.id, { query: "a".repeat(513) }, first))))).toBe("InvalidInput")
        expect((yield* run(search.inSpace(space.id, { query: "word ".repeat(102) + "ab" }, first))).count).toBe(0)
        expect(failureTag(yield* Effect.either(run(search.inOrganization(organization.id, { query: "x".repeat(513) }, first))))).toBe(
          "InvalidInput"
        )
      }))
  })
