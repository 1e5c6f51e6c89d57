/**
 * Conventions of the Java-implemented endpoints (`/api/v1/network/*`): error bodies, parameter readers,
 * response headers and method handling. See api.md §1.7, §3.1 and each module's comment.
 */
export {
  failedToConvert,
  type JavaErrorMessage,
  JavaHttpError,
  javaBadRequest,
  javaBindingErrors,
  javaError,
  javaErrorBody,
  javaErrorHandler,
  javaMethodNotAllowed,
  javaNotFound,
  reasonPhrase,
  sendJavaError,
} from "./errors.ts";
export {
  ALL_TIME,
  MAX_INT64,
  multiValues,
  type Order,
  parseJavaInt,
  parseJavaLong,
  parseJavaTimestamp,
  parseOrder,
  readChoiceParam,
  readFirst,
  readOrderParam,
  readSingle,
  readTimestampBounds,
  type TimestampBounds,
  type TimestampOptions,
} from "./params.ts";
export { type JavaQuery, parseJavaQuery } from "./query.ts";
export {
  getOnly,
  JAVA_JSON_TYPE,
  type JavaSendOptions,
  javaEtag,
  NETWORK_CACHE_CONTROL,
  sendJavaJson,
  sendJavaText,
} from "./respond.ts";
