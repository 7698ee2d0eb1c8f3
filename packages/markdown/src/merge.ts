// Writing a page back as it was read: the blocks an edit did not touch keep their text (issue 39).
import type { RootContent } from "mdast"
import { parse } from "./parse.js"
import { stringify } from "./stringify.js"

/** A top-level block of a page: where it sits, and what it says (its markdown as the package writes it). */
interface Block {
  readonly start: number
  readonly end: number
  readonly key: string
}

const blocksOf = (markdown: string): Array<Block> =>
  parse(markdown).children.flatMap((node: RootContent) => {
    const start = node.position?.start.offset
    const end = node.position?.end.offset
    return start === undefined || end === undefined ? [] : [{ start, end, key: stringify({ type: "root", children: [node] }) }]
  })

/** Beyond this many blocks each side of the changed middle, the middle is not aligned block by block. */
const MAX_ALIGNED = 2_000

/**
 * The pairs of blocks of `a` and `b` that say the same thing, in order (a longest common subsequence of their keys):
 * the common start and end first, then the middle when it is small enough to align.
 */
const alignment = (a: ReadonlyArray<Block>, b: ReadonlyArray<Block>): Array<readonly [number, number]> => {
  const pairs: Array<readonly [number, number]> = []
  let head = 0
  while (head < a.length && head < b.length && a[head]?.key === b[head]?.key) pairs.push([head, head++])
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail]?.key === b[b.length - 1 - tail]?.key) tail++
  const n = a.length - head - tail
  const m = b.length - head - tail
  if (n > 0 && m > 0 && n <= MAX_ALIGNED && m <= MAX_ALIGNED) {
    // lengths[i][j]: the longest common subsequence of a's middle from i and b's middle from j.
    const lengths = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1))
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        const row = lengths[i] as Uint16Array
        row[j] = a[head + i]?.key === b[head + j]?.key
          ? (lengths[i + 1] as Uint16Array)[j + 1] as number + 1
          : Math.max((lengths[i + 1] as Uint16Array)[j] as number, row[j + 1] as number)
      }
    }
    for (let i = 0, j = 0; i < n && j < m;) {
      if (a[head + i]?.key === b[head + j]?.key) pairs.push([head + i++, head + j++])
      else if (((lengths[i + 1] as Uint16Array)[j] as number) >= ((lengths[i] as Uint16Array)[j + 1] as number)) i++
      else j++
    }
  }
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k])
  return pairs
}

/**
 * `next` (a page's new body) with each of its top-level blocks that says what a block of `previous` (the body as the
 * repository holds it) said written as `previous` wrote it: an edit made through an editor or the API that writes
 * the whole page again changes, in the file, only the blocks it changed. Blocks keep `previous`'s spacing where they
 * stood side by side there, else `next`'s. The result always says what `next` says, block for block.
 */
export const keepUnchangedBlocks = (previous: string, next: string): string => {
  if (previous === next) return next
  const a = blocksOf(previous)
  const b = blocksOf(next)
  const kept = new Map(alignment(a, b).map(([i, j]) => [j, i] as const))
  if (kept.size === 0) return next
  let out = ""
  let last: { readonly side: "a" | "b"; readonly index: number } | undefined
  for (const [j, block] of b.entries()) {
    const i = kept.get(j)
    const here = i === undefined ? { side: "b" as const, index: j } : { side: "a" as const, index: i }
    if (last === undefined) {
      out += here.side === "a" && here.index === 0 ? previous.slice(0, a[0]?.start ?? 0) : next.slice(0, block.start)
    } else if (here.side === "a" && last.side === "a" && here.index === last.index + 1) {
      out += previous.slice(a[last.index]?.end ?? 0, a[here.index]?.start ?? 0)
    } else if (j > 0) {
      out += next.slice(b[j - 1]?.end ?? 0, block.start)
    }
    const source = here.side === "a" ? a[here.index] as Block : block
    out += (here.side === "a" ? previous : next).slice(source.start, source.end)
    last = here
  }
  const end = last?.side === "a" && last.index === a.length - 1
    ? previous.slice(a[a.length - 1]?.end ?? previous.length)
    : next.slice(b[b.length - 1]?.end ?? next.length)
  const merged = out + end
  // Blocks side by side may read together otherwise (two lists with the same marker are one list): what the result
  // says is checked, and the new body kept whole when it differs.
  const said = blocksOf(merged)
  return said.length === b.length && said.every((block, k) => block.key === b[k]?.key) ? merged : next
}
