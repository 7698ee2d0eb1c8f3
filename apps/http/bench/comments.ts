/**
 * Change request comments at scale: a change request with 10,000 comments, some on pages or their
 * blocks, some resolved, some with replies and reactions. Seeds through the repository, then times
 * the first page of `Comments.list` (newest first, 50 a page) on each storage. Run with
 * `pnpm bench:comments`; set OCTAVO_BENCH_DATABASE_URL to include a PostgreSQL server.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { withSearchPath } from "@octavo/adapters-pg"
import {
  Actor,
  ChangeRequests,
  type Comment,
  CommentId,
  CommentReplyId,
  CommentRepository,
  Comments,
  DomainServices,
  OutsideNotGiven,
  Identity,
  LiveEdits,
  Organizations,
  PageId,
  Spaces,
  type StoragePorts,
  UnitOfWork,
  type UserId
} from "@octavo/domain"
import { Context, Effect, Layer, Logger, LogLevel, Option } from "effect"
import type { StorageChoice } from "../src/Config.js"
import { storageLayer } from "../src/Storage.js"
import { ADMIN, ms, timing, withBenchSchema } from "./common.js"

const COMMENTS = Number(process.env["BENCH_COMMENTS"] ?? 10_000)
const PAGES = 20
const USERS = 8
const WARM_UP = 20
const RUNS = 200
/** Comments written per transaction while seeding. */
const BATCH = 500

const runOn = (name: string, choice: StorageChoice) =>
  Effect.gen(function*() {
    const storage = yield* Layer.build(storageLayer(choice))
    const shared: Layer.Layer<StoragePorts> = Layer.succeedContext(storage)
    const services = yield* Layer.build(DomainServices.pipe(Layer.provide(Layer.merge(shared, OutsideNotGiven))))
    const identity = Context.get(services, Identity)
    const admin = yield* identity.bootstrapInstanceAdmin(ADMIN)
    const as = Effect.provideService(Actor, admin)
    const { organization } = yield* as(Context.get(services, Organizations).create({ title: "Comments bench" }))
    const { space } = yield* as(Context.get(services, Spaces).create(organization.id, { title: "Reviewed" }))
    const pageIds = Array.from({ length: PAGES }, (_, i) => PageId.make(`benchpage${i}`))
    yield* as(
      Context.get(services, LiveEdits).editLiveWith(space.id, () =>
        Effect.succeed(pageIds.map((id, i) => ({
          operation: "insert_page" as const,
          id,
          title: `Page ${i}`,
          slug: `page-${i}`,
          document: { markdown: `Paragraph one of page ${i}.\n\nParagraph two of page ${i}.` },
          into: null
        }))))
    )
    const changeRequest = yield* as(Context.get(services, ChangeRequests).create(space.id, { subject: "Under review" }))
    const users: Array<UserId> = [admin.id]
    for (let i = 1; i < USERS; i++) {
      const user = yield* as(identity.createUser({ displayName: `Reviewer ${i}`, email: `reviewer${i}@bench.example` }))
      users.push(user.id)
    }

    // Every 5th comment on a page (every 10th on its first block), every 3rd resolved, every 10th
    // with 3 replies, every 7th with reactions; a second apart, so the order is by time.
    const repo = Context.get(storage, CommentRepository)
    const uow = Context.get(storage, UnitOfWork)
    const start = Date.UTC(2026, 0, 1)
    const user = (i: number) => users[i % USERS] as UserId
    const started = performance.now()
    let open = 0
    for (let from = 0; from < COMMENTS; from += BATCH) {
      yield* uow.transaction(Effect.gen(function*() {
        for (let i = from; i < Math.min(COMMENTS, from + BATCH); i++) {
          const resolved = i % 3 === 0
          const onPage = i % 5 === 0
          const comment: Comment = {
            id: CommentId.make(`benchcomment${i}`),
            spaceId: space.id,
            changeRequestId: changeRequest.changeRequest.id,
            postedBy: user(i),
            postedAt: new Date(start + i * 1000),
            body: `Comment ${i}: please look at this again.`,
            status: resolved ? "resolved" : "open",
            ...(resolved ? { resolvedAt: new Date(start + i * 1000 + 500), resolvedBy: user(i + 1) } : {}),
            revisionId: changeRequest.changeRequest.revisionId,
            ...(onPage ? { pageId: pageIds[i % PAGES] as PageId } : {}),
            ...(i % 10 === 0 ? { node: { id: "k0", preview: "Paragraph one" } } : {}),
            replies: 0
          }
          yield* repo.insert(comment)
          if (!resolved) open++
          if (i % 10 === 0) {
            for (let r = 0; r < 3; r++) {
              yield* repo.insertReply({
                id: CommentReplyId.make(`benchreply${i}x${r}`),
                commentId: comment.id,
                spaceId: space.id,
                changeRequestId: comment.changeRequestId,
                postedBy: user(i + r + 1),
                postedAt: new Date(start + i * 1000 + 100 * (r + 1)),
                body: `Reply ${r} to comment ${i}.`
              })
            }
          }
          if (i % 7 === 0) {
            for (let r = 0; r < 3; r++) {
              yield* repo.react(comment.id, comment.id, user(i + r), {
                added: r === 0 ? ["👍", "🎉"] : ["👍"],
                removed: [],
                at: new Date(start + i * 1000 + 10 * (r + 1))
              })
            }
          }
        }
      }))
    }
    yield* repo.countOpen(space.id, open)
    const seeded = performance.now() - started

    const comments = Context.get(services, Comments)
    const reference = String(changeRequest.changeRequest.number)
    const firstPage = as(comments.list(space.id, reference, {}, { limit: 50, after: Option.none() }))
    const listed = yield* firstPage
    if (listed.count !== COMMENTS || listed.items.length !== 50) {
      throw new Error(`expected 50 of ${COMMENTS} comments, got ${listed.items.length} of ${listed.count}`)
    }
    const samples: Array<number> = []
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const t = performance.now()
      yield* firstPage
      if (i >= WARM_UP) samples.push(performance.now() - t)
    }
    // The storage's part of it: the page with its count, then the reactions and repliers of its comments.
    const storagePart = Effect.gen(function*() {
      const found = yield* repo.list(changeRequest.changeRequest.id, {}, "desc", { limit: 50, after: Option.none() })
      const ids = found.items.map((c) => c.id)
      yield* repo.reactionsOf(ids)
      yield* repo.repliersOf(ids)
    })
    const storageSamples: Array<number> = []
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const t = performance.now()
      yield* storagePart
      if (i >= WARM_UP) storageSamples.push(performance.now() - t)
    }
    process.stdout.write(`\n${name}: ${COMMENTS} comments on one change request, seeded in ${(seeded / 1000).toFixed(1)} s\n`)
    process.stdout.write(`  list the first 50, newest first    ${ms(timing(samples))}   (${RUNS} runs)\n`)
    process.stdout.write(`    of which the repository's reads  ${ms(timing(storageSamples))}\n`)
  }).pipe(Effect.scoped)

const program = Effect.gen(function*() {
  process.stdout.write(`Octavo comments benchmark: Node ${process.version}, ${new Date().toISOString()}\n`)
  yield* runOn("memory", { _tag: "memory" })
  const dataDir = mkdtempSync(join(tmpdir(), "octavo-bench-"))
  yield* runOn("embedded PostgreSQL (PGlite, on disk)", { _tag: "pglite", dataDir }).pipe(
    Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
  )
  const url = process.env["OCTAVO_BENCH_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    yield* withBenchSchema(url, (schema) => runOn("PostgreSQL server", { _tag: "postgres", url: withSearchPath(url, schema) }))
  }
})

Effect.runPromise(program.pipe(Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
