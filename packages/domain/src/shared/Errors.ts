import { Schema } from "effect"

/** The object does not exist, or the caller may not know that it exists. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  entity: Schema.String,
  id: Schema.String
}) {
  override get message() {
    return `${this.entity} ${this.id} was not found`
  }
}

/** The caller can see the object but lacks the role for the action. */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  action: Schema.String,
  required: Schema.String
}) {
  override get message() {
    return `You may not ${this.action}: it requires ${this.required}`
  }
}

/** No valid credentials came with the request. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

/** The input breaks a rule; `field` names where. */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  field: Schema.String,
  rule: Schema.String
}) {
  override get message() {
    return this.field === "" ? this.rule : `${this.field}: ${this.rule}`
  }
}

/** The action conflicts with the current state (a duplicate, the last admin, a cycle). */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

/** A precondition of a transition does not hold. */
export class PreconditionFailed extends Schema.TaggedError<PreconditionFailed>()("PreconditionFailed", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

export type DomainError = NotFound | Forbidden | Unauthenticated | InvalidInput | Conflict | PreconditionFailed

/**
 * The conflicts storage reports, worded once so that every adapter answers alike.
 */
export const conflicts = {
  emailTaken: (email: string) => new Conflict({ reason: `A user with email ${email} exists already` }),
  hostnameTaken: (hostname: string) => new Conflict({ reason: `The hostname ${hostname} is taken` }),
  alreadyMember: () => new Conflict({ reason: "The user is a member of this organization already" }),
  idTaken: (entity: string, id: string) => new Conflict({ reason: `A ${entity} with id ${id} exists already` }),
  customFieldTaken: (name: string) => new Conflict({ reason: `A custom field named ${name} exists already` }),
  changeRequestNumberTaken: (number: number) =>
    new Conflict({ reason: `Change request number ${number} was just taken by another one: try again` })
} as const
