import { Context } from "effect"
import type { User } from "./User.js"

/** The authenticated user on whose behalf a use case runs. */
export class Actor extends Context.Tag("@octavo/domain/Actor")<Actor, User>() {}
