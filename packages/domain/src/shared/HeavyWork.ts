import {
  blocksOf,
  keepUnchangedBlocks,
  type Link,
  linksOf,
  type PageMarkdown,
  readPage,
  rewriteLinks,
  type Section,
  sections
} from "@octavo/markdown"
import { Context, Effect, Schema } from "effect"
import { giveTurn } from "./Turns.js"

/**
 * Text a parser could not read: nested past its stack, not read within the time it is given, or its
 * worker stopped. `rule` completes a sentence about the field it came from ("… is nested too deeply to be read").
 */
export class Unreadable extends Schema.TaggedError<Unreadable>()("Unreadable", { rule: Schema.String }) {}

/** What a parser that throws is taken to mean: input nested past its stack. */
export const NESTED_TOO_DEEPLY = "is nested too deeply to be read"

/**
 * A pure function of plain data (in and out) that may take long on a large input. `name` finds it in
 * the table a worker holds (HeavyTasks.ts), so an adapter may run it on another thread.
 */
export interface HeavyTask<Args extends ReadonlyArray<unknown>, A> {
  readonly name: string
  readonly run: (...args: Args) => A
}

export const heavyTask = <Args extends ReadonlyArray<unknown>, A>(name: string, run: (...args: Args) => A): HeavyTask<Args, A> => ({
  name,
  run
})

/** Runs a task here, after a turn of the event loop if one is due (Turns.ts): a throw is Unreadable. */
export const runHere = <Args extends ReadonlyArray<unknown>, A>(task: HeavyTask<Args, A>, ...args: Args): Effect.Effect<A, Unreadable> =>
  Effect.zipRight(giveTurn, Effect.try({ try: () => task.run(...args), catch: () => new Unreadable({ rule: NESTED_TOO_DEEPLY }) }))

export interface HeavyWorkRunner {
  readonly run: <Args extends ReadonlyArray<unknown>, A>(task: HeavyTask<Args, A>, ...args: Args) => Effect.Effect<A, Unreadable>
}

/**
 * Where parses of large texts run (issue 13): by default here, in the caller's thread (embedders, the
 * domain's tests); the server provides a pool of worker threads so that one large page does not stall
 * every other request.
 */
export class HeavyWork extends Context.Reference<HeavyWork>()("@octavo/domain/HeavyWork", {
  defaultValue: (): HeavyWorkRunner => ({ run: runHere })
}) {}

/** Text one batched task takes at most, in characters: a longer text goes alone. */
const BATCH_CHARS = 64 * 1024

/**
 * `task` over `texts` in batches of about `BATCH_CHARS`, answers in order: thousands of small pages cross to a worker
 * in a few tasks rather than each run here, and no batch holds the thread that runs it for long.
 */
export const runBatched = <A>(
  task: HeavyTask<[ReadonlyArray<string>], ReadonlyArray<A>>,
  texts: ReadonlyArray<string>,
  /** Told after each batch how many texts are done, of how many. */
  progress?: (done: number, total: number) => Effect.Effect<void>
): Effect.Effect<Array<A>, Unreadable> =>
  Effect.gen(function*() {
    const heavy = yield* HeavyWork
    const batches: Array<Array<string>> = []
    let size = BATCH_CHARS
    for (const text of texts) {
      if (size + text.length > BATCH_CHARS) {
        batches.push([])
        size = 0
      }
      batches[batches.length - 1]?.push(text)
      size += text.length
    }
    let done = 0
    const answers = yield* Effect.forEach(batches, (batch) =>
      Effect.tap(heavy.run(task, batch), () => {
        done += batch.length
        return progress === undefined ? Effect.void : progress(done, texts.length)
      }))
    return answers.flat()
  })

// Markdown tasks: each one parse of a page, answering plain data.

/** A page's front matter, title and body (`readPage`). */
export const readPageTask = heavyTask(
  "markdown.readPage",
  (markdown: string, takeTitle: boolean): PageMarkdown => readPage(markdown, { takeTitle })
)

/** Pages' front matter, titles and bodies, with the links of each body: a repository's pages read in batches. */
export const readPagesTask = heavyTask(
  "markdown.readPages",
  (texts: ReadonlyArray<string>): Array<{ readonly page: PageMarkdown; readonly links: Array<Link> }> =>
    texts.map((text) => {
      const page = readPage(text, { takeTitle: true })
      return { page, links: page.body === "" ? [] : linksOf(page.body) }
    })
)

/** The urls of a page with where they sit (`linksOf`). */
export const linksTask = heavyTask("markdown.links", (markdown: string): Array<Link> => linksOf(markdown))

/**
 * `markdown` with the urls of its `links` (found beforehand, as `linksTask` or a batch finds them) replaced where
 * `decide` answers another url; parsed again only when one changes.
 */
export const rewriteUrls = (
  markdown: string,
  links: ReadonlyArray<Link>,
  decide: (url: string) => string | undefined
): Effect.Effect<string, Unreadable> =>
  Effect.suspend(() => {
    const decisions = links.flatMap((link) => {
      const url = decide(link.url)
      return url === undefined || url === link.url ? [] : [[linkKey(link), url] as const]
    })
    return decisions.length === 0
      ? Effect.succeed(markdown)
      : Effect.flatMap(HeavyWork, (heavy) => heavy.run(rewriteLinksTask, markdown, decisions))
  })

/** The links of each of many pages: a space's pages read in batches. */
export const linksOfPagesTask = heavyTask(
  "markdown.linksOfPages",
  (markdowns: ReadonlyArray<string>): Array<Array<Link>> => markdowns.map((markdown) => linksOf(markdown))
)

/** Where a link sits, as `rewriteLinksTask` finds its decision. */
export const linkKey = (link: Pick<Link, "start" | "end">): string => `${link.start}:${link.end}`

/** `rewriteLinks` with its decisions made beforehand, by `linkKey`: a url replaces, null takes the link out, none leaves it. */
export const rewriteLinksTask = heavyTask(
  "markdown.rewriteLinks",
  (markdown: string, decisions: ReadonlyArray<readonly [string, string | null]>): string => {
    const decided = new Map(decisions)
    return rewriteLinks(markdown, (link) => decided.get(linkKey(link)))
  }
)

/** A page's new body with the blocks it did not change as the repository wrote them (`keepUnchangedBlocks`). */
export const keepUnchangedBlocksTask = heavyTask(
  "markdown.keepUnchangedBlocks",
  (previous: string, next: string): string => keepUnchangedBlocks(previous, next)
)

/** A page's sections, for search (`sections`). */
export const sectionsTask = heavyTask("markdown.sections", (markdown: string): Array<Section> => sections(markdown))

/** The keys and texts of a page's top-level blocks, which comments point at (`blocksOf`). */
export const blocksTask = heavyTask(
  "markdown.blocks",
  (markdown: string): Array<{ readonly key: string; readonly text: string }> => blocksOf(markdown).map(({ key, text }) => ({ key, text }))
)
