/**
 * Every endpoint the fuzz test drives, declared as data: its path template, the kind of each path parameter
 * and of each query parameter it accepts, and the error body format it answers with. A new endpoint is one
 * more entry (the network endpoints, answered in the Java mirror node's format, say `errorStyle: "java"`).
 */

/** What a parameter holds; each kind has its own generator of valid, boundary and malformed values. */
export type ValueKind =
  | "tokenId"
  | "accountId"
  | "serial"
  | "timestamp"
  | "limit"
  | "order"
  | "publicKey"
  | "tokenType"
  | "name"
  | "balance"
  | "blockNumber"
  | "hashOrNumber";

/**
 * - `node`: `{"_status":{"messages":[{"message":"..."}]}}` (tokens, blocks: the Node mirror node);
 * - `java`: `{"_status":{"messages":[{"message":"Bad Request","detail":"..."}]}}` (the Java mirror node).
 */
export type ErrorStyle = "node" | "java";

export type FuzzEndpoint = {
  readonly path: string;
  readonly errorStyle: ErrorStyle;
  readonly pathParams: Readonly<Record<string, ValueKind>>;
  readonly query: Readonly<Record<string, ValueKind>>;
};

const pages = { limit: "limit", order: "order" } as const;
const balances = {
  "account.id": "accountId",
  "account.balance": "balance",
  "account.publickey": "publicKey",
  timestamp: "timestamp",
  ...pages,
} as const;
const nfts = { "account.id": "accountId", serialnumber: "serial", ...pages } as const;
const history = { timestamp: "timestamp", ...pages } as const;

export const FUZZ_ENDPOINTS: readonly FuzzEndpoint[] = [
  {
    path: "/api/v1/tokens",
    errorStyle: "node",
    pathParams: {},
    query: {
      "token.id": "tokenId",
      "account.id": "accountId",
      publickey: "publicKey",
      type: "tokenType",
      name: "name",
      ...pages,
    },
  },
  {
    path: "/api/v1/tokens/{tokenId}",
    errorStyle: "node",
    pathParams: { tokenId: "tokenId" },
    query: { timestamp: "timestamp" },
  },
  {
    path: "/api/v1/tokens/{tokenId}/balances",
    errorStyle: "node",
    pathParams: { tokenId: "tokenId" },
    query: balances,
  },
  {
    path: "/api/v1/tokens/balances",
    errorStyle: "node",
    pathParams: {},
    query: { "token.id": "tokenId", ...balances },
  },
  {
    path: "/api/v1/tokens/{tokenId}/nfts",
    errorStyle: "node",
    pathParams: { tokenId: "tokenId" },
    query: nfts,
  },
  {
    path: "/api/v1/tokens/nfts",
    errorStyle: "node",
    pathParams: {},
    query: { "token.id": "tokenId", ...nfts },
  },
  {
    path: "/api/v1/tokens/{tokenId}/nfts/{serialNumber}",
    errorStyle: "node",
    pathParams: { tokenId: "tokenId", serialNumber: "serial" },
    query: {},
  },
  {
    path: "/api/v1/tokens/nfts/{serialNumber}",
    errorStyle: "node",
    pathParams: { serialNumber: "serial" },
    query: { "token.id": "tokenId" },
  },
  {
    path: "/api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions",
    errorStyle: "node",
    pathParams: { tokenId: "tokenId", serialNumber: "serial" },
    query: history,
  },
  {
    path: "/api/v1/tokens/nfts/{serialNumber}/transactions",
    errorStyle: "node",
    pathParams: { serialNumber: "serial" },
    query: { "token.id": "tokenId", ...history },
  },
  {
    path: "/api/v1/blocks",
    errorStyle: "node",
    pathParams: {},
    query: { "block.number": "blockNumber", timestamp: "timestamp", ...pages },
  },
  {
    path: "/api/v1/blocks/{hashOrNumber}",
    errorStyle: "node",
    pathParams: { hashOrNumber: "hashOrNumber" },
    query: {},
  },
];
