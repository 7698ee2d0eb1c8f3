/** What the peer and the floors answer for a space's counters: none, as they keep none. */
export const NO_COUNTS = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 } as const

/** What the peer and the floors answer for a space's permissions: everything, as they check no membership. */
export const ALL_PERMISSIONS = {
  view: true,
  access: true,
  admin: true,
  viewInviteLinks: true,
  edit: true,
  triggerGitSync: true,
  comment: true,
  merge: true,
  review: true,
  installIntegration: true
} as const
