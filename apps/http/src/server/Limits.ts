/** What one request may hold. */

/** Path parameters up to this length are matched and checked by their schemas; the request line is bounded anyway. */
export const MAX_PATH_PARAMETER_LENGTH = 4096

/** Request bodies above this size are refused with 413. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024

/** JSON nested deeper than this is refused with 400 before it is decoded: deeper input only serves to exhaust the stack. */
export const MAX_JSON_DEPTH = 64
