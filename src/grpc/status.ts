/** The gRPC status codes the API sends (the numbers of `@grpc/grpc-js`'s `status`, without importing it here). */
export enum Status {
  OK = 0,
  CANCELLED = 1,
  UNKNOWN = 2,
  INVALID_ARGUMENT = 3,
  DEADLINE_EXCEEDED = 4,
  NOT_FOUND = 5,
  RESOURCE_EXHAUSTED = 8,
  UNIMPLEMENTED = 12,
  INTERNAL = 13,
  UNAVAILABLE = 14,
}

/** Upstream's descriptions, exactly (grpc.md §5). */
export const Details = {
  unknown: "Unknown error",
  dataSource: "Error querying the data source. Please retry later",
  lagging: "Client lags too much behind. Please retry later",
  shuttingDown: "Server is shutting down",
  notATopic: "Not a valid topic",
} as const;

/** A call ended with a status other than OK: the code and its description. */
export type Refusal = { readonly code: Status; readonly details: string };
