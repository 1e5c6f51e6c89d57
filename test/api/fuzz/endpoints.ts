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
  | "hashOrNumber"
  | "fileId"
  | "nodeId"
  | "supplyQuery"
  | "accountPath"
  | "accountIdOrAlias"
  | "boolean"
  | "topicId"
  | "sequenceNumber"
  | "encoding"
  | "transactionType"
  | "transactionResult"
  | "creditDebit"
  | "transactionIdOrHash"
  | "nonce"
  | "scheduled"
  | "contractId"
  | "contractTransactionIdOrHash"
  | "blockHash"
  | "topic"
  | "slot"
  | "logIndex"
  | "logTransactionHash";

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
  /** The fixture scenario served while fuzzing it (one with data for the endpoint to answer from). */
  readonly scenario: FuzzScenario;
  /** A Node-style error may carry a `detail` too (upstream's `/balances` account.id errors). */
  readonly errorDetail?: boolean;
  /**
   * For a `java` endpoint the public ingress sends only some paths to (`/api/v1/topics/{id}` with a numeric
   * id): whether this request path reaches it. The others are the Node service's 404.
   */
  readonly reachesJava?: (path: string) => boolean;
};

export type FuzzScenario =
  | "tokens-group-nfts"
  | "network"
  | "network-supply"
  | "account-relations"
  | "accounts"
  | "topics"
  | "transactions"
  | "contracts";

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
const account = { idOrAliasOrEvmAddress: "accountPath" } as const;
const airdrops = { serialnumber: "serial", "token.id": "tokenId", ...pages } as const;

/** `/api/v1/topics/{id}` reaches the Java route when its decoded id is one to three runs of digits. */
function reachesJavaTopic(path: string): boolean {
  const segment = path.slice("/api/v1/topics/".length).replace(/\/$/, "");
  try {
    return /^(\d+\.){0,2}\d+$/.test(decodeURIComponent(segment));
  } catch {
    return false;
  }
}

export const FUZZ_ENDPOINTS: readonly FuzzEndpoint[] = [
  {
    path: "/api/v1/accounts",
    errorStyle: "node",
    scenario: "accounts",
    pathParams: {},
    query: {
      "account.id": "accountId",
      "account.balance": "balance",
      "account.publickey": "publicKey",
      balance: "boolean",
      ...pages,
    },
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}",
    errorStyle: "node",
    scenario: "accounts",
    pathParams: { idOrAliasOrEvmAddress: "accountPath" },
    query: { timestamp: "timestamp", transactiontype: "transactionType", transactions: "boolean", ...pages },
  },
  {
    path: "/api/v1/balances",
    errorStyle: "node",
    errorDetail: true,
    scenario: "accounts",
    pathParams: {},
    query: { ...balances, "account.id": "accountIdOrAlias" },
  },
  {
    path: "/api/v1/tokens",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
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
    scenario: "tokens-group-nfts",
    pathParams: { tokenId: "tokenId" },
    query: { timestamp: "timestamp" },
  },
  {
    path: "/api/v1/tokens/{tokenId}/balances",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: { tokenId: "tokenId" },
    query: balances,
  },
  {
    path: "/api/v1/tokens/balances",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: {},
    query: { "token.id": "tokenId", ...balances },
  },
  {
    path: "/api/v1/tokens/{tokenId}/nfts",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: { tokenId: "tokenId" },
    query: nfts,
  },
  {
    path: "/api/v1/tokens/nfts",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: {},
    query: { "token.id": "tokenId", ...nfts },
  },
  {
    path: "/api/v1/tokens/{tokenId}/nfts/{serialNumber}",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: { tokenId: "tokenId", serialNumber: "serial" },
    query: {},
  },
  {
    path: "/api/v1/tokens/nfts/{serialNumber}",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: { serialNumber: "serial" },
    query: { "token.id": "tokenId" },
  },
  {
    path: "/api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: { tokenId: "tokenId", serialNumber: "serial" },
    query: history,
  },
  {
    path: "/api/v1/tokens/nfts/{serialNumber}/transactions",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: { serialNumber: "serial" },
    query: { "token.id": "tokenId", ...history },
  },
  {
    path: "/api/v1/blocks",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: {},
    query: { "block.number": "blockNumber", timestamp: "timestamp", ...pages },
  },
  {
    path: "/api/v1/blocks/{hashOrNumber}",
    errorStyle: "node",
    scenario: "tokens-group-nfts",
    pathParams: { hashOrNumber: "hashOrNumber" },
    query: {},
  },
  {
    path: "/api/v1/transactions",
    errorStyle: "node",
    scenario: "transactions",
    pathParams: {},
    query: {
      "account.id": "accountId",
      timestamp: "timestamp",
      transactiontype: "transactionType",
      result: "transactionResult",
      type: "creditDebit",
      ...pages,
    },
  },
  {
    path: "/api/v1/transactions/{transactionIdOrHash}",
    errorStyle: "node",
    scenario: "transactions",
    pathParams: { transactionIdOrHash: "transactionIdOrHash" },
    query: { nonce: "nonce", scheduled: "scheduled" },
  },
  {
    path: "/api/v1/network/exchangerate",
    errorStyle: "java",
    scenario: "network",
    pathParams: {},
    query: { timestamp: "timestamp" },
  },
  {
    path: "/api/v1/network/fees",
    errorStyle: "java",
    scenario: "network",
    pathParams: {},
    query: { timestamp: "timestamp", order: "order" },
  },
  {
    path: "/api/v1/network/nodes",
    errorStyle: "java",
    scenario: "network",
    pathParams: {},
    query: { "file.id": "fileId", "node.id": "nodeId", ...pages },
  },
  {
    path: "/api/v1/network/stake",
    errorStyle: "java",
    scenario: "network",
    pathParams: {},
    query: {},
  },
  {
    path: "/api/v1/network/supply",
    errorStyle: "java",
    scenario: "network-supply",
    pathParams: {},
    query: { timestamp: "timestamp", q: "supplyQuery" },
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}/tokens",
    errorStyle: "node",
    scenario: "account-relations",
    pathParams: account,
    query: { "token.id": "tokenId", ...pages },
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}/nfts",
    errorStyle: "node",
    scenario: "account-relations",
    pathParams: account,
    query: { "token.id": "tokenId", serialnumber: "serial", "spender.id": "accountId", ...pages },
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards",
    errorStyle: "node",
    scenario: "account-relations",
    pathParams: account,
    query: history,
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/crypto",
    errorStyle: "node",
    scenario: "account-relations",
    pathParams: account,
    query: { "spender.id": "accountId", ...pages },
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/tokens",
    errorStyle: "node",
    scenario: "account-relations",
    pathParams: account,
    query: { "spender.id": "accountId", "token.id": "tokenId", ...pages },
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/nfts",
    errorStyle: "java",
    scenario: "account-relations",
    pathParams: account,
    query: { "account.id": "accountId", "token.id": "tokenId", owner: "boolean", ...pages },
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}/airdrops/outstanding",
    errorStyle: "java",
    scenario: "account-relations",
    pathParams: account,
    query: { "receiver.id": "accountId", ...airdrops },
  },
  {
    path: "/api/v1/accounts/{idOrAliasOrEvmAddress}/airdrops/pending",
    errorStyle: "java",
    scenario: "account-relations",
    pathParams: account,
    query: { "sender.id": "accountId", ...airdrops },
  },
  {
    path: "/api/v1/topics/{topicId}",
    errorStyle: "java",
    scenario: "topics",
    pathParams: { topicId: "topicId" },
    query: { limit: "limit" },
    reachesJava: reachesJavaTopic,
  },
  {
    path: "/api/v1/topics/{topicId}/messages",
    errorStyle: "node",
    scenario: "topics",
    pathParams: { topicId: "topicId" },
    query: { encoding: "encoding", sequencenumber: "sequenceNumber", timestamp: "timestamp", ...pages },
  },
  {
    path: "/api/v1/topics/{topicId}/messages/{sequenceNumber}",
    errorStyle: "node",
    scenario: "topics",
    pathParams: { topicId: "topicId", sequenceNumber: "sequenceNumber" },
    query: {},
  },
  {
    path: "/api/v1/topics/messages/{consensusTimestamp}",
    errorStyle: "node",
    scenario: "topics",
    pathParams: { consensusTimestamp: "timestamp" },
    query: {},
  },
  ...contractEndpoints(),
];

/**
 * The contracts group (issue 22), on the `contracts` scenario.
 */
function contractEndpoints(): FuzzEndpoint[] {
  const scenario: FuzzScenario = "contracts";
  const contract = { contractIdOrAddress: "contractId" } as const;
  const results = {
    "block.hash": "blockHash",
    "block.number": "blockNumber",
    from: "accountId",
    hbar: "boolean",
    internal: "boolean",
    timestamp: "timestamp",
    "transaction.index": "serial",
    ...pages,
  } as const;
  const logs = {
    index: "logIndex",
    timestamp: "timestamp",
    topic0: "topic",
    topic1: "topic",
    topic2: "topic",
    topic3: "topic",
    ...pages,
  } as const;
  const tx = { transactionIdOrHash: "contractTransactionIdOrHash" } as const;
  const node = (path: string, pathParams: FuzzEndpoint["pathParams"], query: FuzzEndpoint["query"]) => ({
    path,
    errorStyle: "node" as const,
    scenario,
    pathParams,
    query,
  });
  return [
    node("/api/v1/contracts", {}, { "contract.id": "contractId", ...pages }),
    node("/api/v1/contracts/results", {}, results),
    node("/api/v1/contracts/results/logs", {}, { ...logs, "transaction.hash": "logTransactionHash" }),
    node("/api/v1/contracts/results/{transactionIdOrHash}", tx, { hbar: "boolean", nonce: "nonce" }),
    node("/api/v1/contracts/results/{transactionIdOrHash}/actions", tx, { index: "logIndex", ...pages }),
    node("/api/v1/contracts/{contractIdOrAddress}", contract, { timestamp: "timestamp" }),
    node("/api/v1/contracts/{contractIdOrAddress}/results", contract, results),
    node("/api/v1/contracts/{contractIdOrAddress}/results/logs", contract, logs),
    node(
      "/api/v1/contracts/{contractIdOrAddress}/results/{timestamp}",
      { ...contract, timestamp: "timestamp" },
      { hbar: "boolean" },
    ),
    node("/api/v1/contracts/{contractIdOrAddress}/state", contract, {
      slot: "slot",
      timestamp: "timestamp",
      ...pages,
    }),
  ];
}
