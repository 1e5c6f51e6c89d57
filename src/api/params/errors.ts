/**
 * Parameter errors for the Node-implemented endpoints (tokens, blocks).
 *
 * Upstream (`rest/errors/invalidArgumentError.js`, `rest/middleware/httpErrorHandler.js`) answers every bad
 * request parameter with 400 and a list of messages, one `{"message": ...}` per problem, all reported together.
 * The parsers here never throw: they return a `ParamResult`, and a route turns a failure into a thrown
 * `ParameterError` with `unwrapParams`.
 */
import { MirrorliteError } from "../../errors.ts";

/** Either the parsed request or the exact list of messages upstream would send with its 400. */
export type ParamResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly messages: readonly string[] };

/** A 400 Bad Request carrying the mirror node's messages in order. */
export class ParameterError extends MirrorliteError {
  readonly status = 400;
  readonly messages: readonly string[];
  constructor(messages: readonly string[]) {
    super(messages.join("; "));
    this.messages = messages;
  }
}

export function succeed<T>(value: T): ParamResult<T> {
  return { ok: true, value };
}

export function fail<T>(messages: readonly string[]): ParamResult<T> {
  return { ok: false, messages };
}

/** Returns the parsed value or throws `ParameterError` with the failure's messages. */
export function unwrapParams<T>(result: ParamResult<T>): T {
  if (!result.ok) throw new ParameterError(result.messages);
  return result.value;
}

/** `Invalid parameter: <name>`, upstream's message for a bad value or path parameter. */
export function invalidParameter(name: string): string {
  return `Invalid parameter: ${name}`;
}

/** `Unknown query parameter: <name>`, for a name the endpoint does not accept. */
export function unknownParameter(name: string): string {
  return `Unknown query parameter: ${name}`;
}
