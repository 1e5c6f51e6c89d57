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
  javaErrorOf,
  javaMethodNotAllowed,
  javaNotFound,
  reasonPhrase,
} from "./errors.ts";
export { javaNextLink, javaSortedNextLink } from "./links.ts";
export {
  DEFAULT_NODES_LIMIT,
  MAX_NODES_LIMIT,
  type NetworkNodesRequest,
  parseEntityIdRange,
  readNetworkNodesRequest,
} from "./network-nodes-request.ts";
export {
  ALL_TIME,
  convertTimestamps,
  type JavaTimestamp,
  multiValues,
  type Order,
  parseJavaInt,
  parseJavaTimestamp,
  parseOrder,
  readChoiceParam,
  readFirst,
  readOrderParam,
  readSingle,
  readTimestampBounds,
  type TimestampBounds,
  type TimestampOptions,
  timestampBounds,
} from "./params.ts";
export { type JavaQuery, parseJavaQuery } from "./query.ts";
export {
  JAVA_JSON_TYPE,
  javaEtag,
} from "./respond.ts";
