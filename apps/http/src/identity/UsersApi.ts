import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { CreateTokenInput, CreateUserInput, TokenId, UserId } from "@octavo/domain"
import { Schema } from "effect"
import { Created } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { ApiTokenObject, UserObject } from "./Wire.js"

export const UserPath = Schema.Struct({ userId: UserId })

export class UsersApi extends HttpApiGroup.make("users")
  .add(HttpApiEndpoint.get("me", "/v1/user").addSuccess(UserObject))
  .add(HttpApiEndpoint.post("create", "/v1/users").setPayload(CreateUserInput).addSuccess(UserObject, Created).pipe(errors(400, 403, 409)))
  .add(HttpApiEndpoint.get("get", "/v1/users/:userId").setPath(UserPath).addSuccess(UserObject).pipe(errors(400, 404)))
  .add(
    HttpApiEndpoint.post("createToken", "/v1/users/:userId/tokens")
      .setPath(UserPath)
      .setPayload(CreateTokenInput)
      .addSuccess(ApiTokenObject, Created)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.del("revokeToken", "/v1/users/:userId/tokens/:tokenId")
      .setPath(Schema.Struct({ userId: UserId, tokenId: TokenId }))
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Users and API tokens; creating users is for the instance administrator")
{}
