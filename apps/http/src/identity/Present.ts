import type { ApiToken, User } from "@octavo/domain"
import type { ApiTokenObject, UserObject } from "./Wire.js"

export const userLocation = (base: string, userId: string) => `${base}/v1/users/${userId}`

export const presentUser = (base: string) => (user: User): typeof UserObject.Type => ({
  object: "user",
  id: user.id,
  displayName: user.displayName,
  email: user.email,
  ...(user.photoURL !== undefined ? { photoURL: user.photoURL } : {}),
  urls: { location: userLocation(base, user.id) }
})

export const tokenLocation = (base: string, token: ApiToken) => `${userLocation(base, token.userId)}/tokens/${token.id}`

export const presentToken = ({ secret, token }: { readonly secret: string; readonly token: ApiToken }): typeof ApiTokenObject.Type => ({
  object: "api-token",
  id: token.id,
  label: token.label,
  token: secret,
  createdAt: token.createdAt
})
