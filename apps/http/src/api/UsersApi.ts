import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CreateTokenInput, CreateUserInput, TokenId, UserId } from "@octavo/domain"
import { Schema } from "effect"
import { Created } from "./Common.js"
import { Authentication } from "./Security.js"
import { ApiTokenObject, UserObject } from "./Wire.js"

const UserPath = Schema.Struct({ userId: UserId })

export class UsersApi extends HttpApiGroup.make("users")
  .add(HttpApiEndpoint.get("me", "/v1/user").addSuccess(UserObject))
  .add(HttpApiEndpoint.post("create", "/v1/users").setPayload(CreateUserInput).addSuccess(UserObject, Created))
  .add(HttpApiEndpoint.get("get", "/v1/users/:userId").setPath(UserPath).addSuccess(UserObject))
  .add(
    HttpApiEndpoint.post("createToken", "/v1/users/:userId/tokens")
      .setPath(UserPath)
      .setPayload(CreateTokenInput)
      .addSuccess(ApiTokenObject, Created)
  )
  .add(
    HttpApiEndpoint.del("revokeToken", "/v1/users/:userId/tokens/:tokenId")
      .setPath(Schema.Struct({ userId: UserId, tokenId: TokenId }))
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Users and API tokens; creating users is for the instance administrator")
{}
