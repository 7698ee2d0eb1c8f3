import { type VisitorToken, VisitorTokens } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { jwtVerify } from "jose"

// Visitor tokens (conventions-2.md §1.3, GitBook's semantics): JWTs signed with HS256 under the
// site's secret, `exp` required, `nbf` and `iat` honoured with 60 s of leeway. Checked by jose (MIT).

const LEEWAY_SECONDS = 60

export const verifyVisitorToken = (token: string, secret: string) =>
  Effect.promise(() =>
    jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ["HS256"],
      requiredClaims: ["exp"],
      clockTolerance: LEEWAY_SECONDS
    }).then(
      ({ payload }) => {
        // The claims that speak of the visitor; the registered ones say only how long the token holds.
        const { aud: _aud, exp, iat: _iat, iss: _iss, jti: _jti, nbf: _nbf, sub: _sub, ...claims } = payload
        return Option.some<VisitorToken>({ claims, expires: exp as number })
      },
      () => Option.none<VisitorToken>()
    )
  )

export const VisitorTokensLive = Layer.succeed(VisitorTokens, VisitorTokens.of({ verify: verifyVisitorToken }))
