import { StoredString } from "@octavo/domain"
import { Schema } from "effect"

const storable = Schema.is(StoredString)

/**
 * A browser path's segments, decoded; undefined when one cannot be decoded, or holds what no id, path
 * or name of Octavo can (NUL, ill-formed UTF-16: the strings storage refuses), or is over 512 characters.
 * Such a path names nothing, and it never reaches storage.
 */
export const segmentsOf = (pathname: string): Array<string> | undefined => {
  try {
    const segments = pathname.split("/").filter((s) => s !== "").map((s) => decodeURIComponent(s))
    return segments.every((s) => s.length <= 512 && storable(s)) ? segments : undefined
  } catch {
    return undefined
  }
}
