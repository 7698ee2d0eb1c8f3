export { OctavoApi } from "./Api.js"
export { makeHttpApp, MAX_BODY_BYTES, type ServerOptions } from "./Server.js"
export { storageLayer } from "./Storage.js"
export { AppConfig, storageChoice, type StorageChoice } from "./Config.js"
