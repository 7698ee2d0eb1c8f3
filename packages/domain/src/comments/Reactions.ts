import { Effect } from "effect"
import type { User } from "../identity/User.js"
import { InvalidInput } from "../shared/Errors.js"
import type { Reaction, ReactionGroup } from "./Comment.js"
import { normalizeEmoji } from "./Emoji.js"

// Reactions have no endpoint of their own: an update of a comment or a reply carries them, and a
// view of either shows them grouped.

/** The changes to a reaction list an update asks for, normalized; an emoji in both ends up removed. */
export const reactionChanges = (
  input: { readonly addedReactions?: ReadonlyArray<string> | undefined; readonly removedReactions?: ReadonlyArray<string> | undefined }
) =>
  Effect.gen(function*() {
    const normalize = (list: ReadonlyArray<string> | undefined, field: string) =>
      Effect.forEach(list ?? [], (text, index) => {
        const emoji = normalizeEmoji(text)
        return emoji === undefined
          ? Effect.fail(
            new InvalidInput({ field: `${field}.${index}`, rule: "must be one emoji, as its character or its code points in hex" })
          )
          : Effect.succeed(emoji)
      })
    const added = yield* normalize(input.addedReactions, "addedReactions")
    const removed = yield* normalize(input.removedReactions, "removedReactions")
    return { added: [...new Set(added)], removed: [...new Set(removed)] }
  })

/** Groups reactions by emoji, in the order each emoji was first used, users in the order they reacted. */
export const groupReactions = (reactions: ReadonlyArray<Reaction>, usersById: ReadonlyMap<string, User>): Array<ReactionGroup> => {
  const groups = new Map<string, Array<{ readonly user: User; readonly reactedAt: Date }>>()
  const sorted = [...reactions].sort((a, b) =>
    a.reactedAt.getTime() - b.reactedAt.getTime() || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)
  )
  for (const reaction of sorted) {
    const user = usersById.get(reaction.userId)
    if (user === undefined) continue
    const group = groups.get(reaction.emoji) ?? []
    group.push({ user, reactedAt: reaction.reactedAt })
    groups.set(reaction.emoji, group)
  }
  return [...groups].map(([emoji, users]) => ({ emoji, users }))
}
