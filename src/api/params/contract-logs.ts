/**
 * Request parsing for the two log routes (contracts.md §5.3, §5.4), `GET /contracts/{id}/results/logs` and
 * `GET /contracts/results/logs`, in upstream's order:
 * 1. the path (by-contract route), then the filters' values and names;
 * 2. two `timestamp` values `gte:X` and `lte:X` become `eq:X`;
 * 3. with a topic filter, the timestamps must form a valid range (`Cannot search topics without a valid timestamp
 *    range: …`);
 * 4. (by-contract route: after the contract is resolved, so these are carried as `boundsProblem`) each of
 *    `timestamp` and `index` takes one `eq`, one lower and one upper bound and no `ne`; a second
 *    `transaction.hash` is refused; then the pairing rules of `index` and `timestamp`.
 *
 * Topic values are compared as upstream compares them (no `0x`, no leading zeros, whole bytes).
 */

import { logIndexSpec, topicSpec, transactionHashSpec } from "./contract-specs.ts";
import { type ContractRef, parseContractPathParam } from "./contracts.ts";
import { fail, type ParamResult, succeed } from "./errors.ts";
import { type Comparison, type FilterOf, type Order, validateFilters } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { addToBound, emptyBound, type KeyBound, validatePair } from "./paired-bounds.ts";
import { limitSpec, orderSpec, timestampSpec } from "./param-specs.ts";
import { pagingFor, readRequest } from "./request.ts";

/** The widest timestamp range a topic search may cover: 7 days (`hiero.mirror.rest.query.maxTimestampRange`). */
const MAX_TOPIC_RANGE_NS = 7n * 24n * 3600n * 1_000_000_000n;
const MAX_LONG = (1n << 63n) - 1n;

function logsSpec(options: ParamOptions, withHash: boolean) {
  const spec = {
    index: logIndexSpec,
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    timestamp: timestampSpec,
    topic0: topicSpec,
    topic1: topicSpec,
    topic2: topicSpec,
    topic3: topicSpec,
  };
  return withHash ? { ...spec, "transaction.hash": transactionHashSpec } : spec;
}

/** What both log routes hand the store: the filters, already checked. */
export type ContractLogsRequest = {
  /** Topic values per position (0-3), each an IN list of lower-case hex bytes; empty: no condition. */
  readonly topics: readonly (readonly string[])[];
  /** `timestamp` (primary) and `index` (secondary) bounds as the request gave them. */
  readonly timestamp: KeyBound<bigint>;
  readonly index: KeyBound<bigint>;
  /** `/contracts/results/logs?transaction.hash=` (lower-case hex, 32 or 48 bytes). */
  readonly transactionHash: string | null;
  /** The first bound or pairing rule the filters break (a 400 raised once the contract is resolved). */
  readonly boundsProblem: string | null;
  readonly limit: number;
  readonly order: Order;
  readonly paging: PagingContext;
};

export type ContractLogsByIdRequest = ContractLogsRequest & { readonly contract: ContractRef };

type LogFilter = { key: string; op: Comparison<unknown>["op"]; value: unknown };

/** Upstream `alterTimestampRange`: exactly `gte:X` and `lte:X` → one `eq:X`, placed last. */
function alterTimestampRange(filters: readonly LogFilter[]): LogFilter[] {
  const stamps = filters.filter((f) => f.key === "timestamp");
  const ops = stamps.map((f) => f.op);
  if (
    stamps.length === 2 &&
    stamps[0]?.value === stamps[1]?.value &&
    ops.includes("gte") &&
    ops.includes("lte")
  ) {
    return [
      ...filters.filter((f) => f.key !== "timestamp"),
      { key: "timestamp", op: "eq", value: stamps[0]?.value },
    ];
  }
  return [...filters];
}

/** Upstream `parseTimestampFilters` with its strict defaults: the message it throws, or null. */
export function strictTimestampRangeProblem(timestamps: readonly Comparison<bigint>[]): string | null {
  if (timestamps.length === 0) return "No timestamp range or eq operator provided";
  let earliest: bigint | null = null;
  let latest: bigint | null = null;
  let lowerCount = 0;
  let upperCount = 0;
  const eq = new Set<bigint>();
  const ne = new Set<bigint>();
  for (const { op, value } of timestamps) {
    if (op === "eq") eq.add(value);
    else if (op === "ne") ne.add(value);
    else if (op === "gt" || op === "gte") {
      const v = op === "gt" ? value + 1n : value;
      earliest = earliest === null || v > earliest ? v : earliest;
      if (earliest < 0n) earliest = 0n;
      lowerCount++;
    } else {
      const v = op === "lt" ? value - 1n : value;
      latest = latest === null || v < latest ? v : latest;
      if (latest > MAX_LONG) latest = MAX_LONG;
      upperCount++;
    }
  }
  if (ne.size > 0) return "Not equals operator not supported for timestamp param";
  if (lowerCount > 1) return "Multiple gt or gte operators not permitted for timestamp param";
  if (upperCount > 1) return "Multiple lt or lte operators not permitted for timestamp param";
  if (eq.size > 0 && (lowerCount > 0 || upperCount > 0)) {
    return "Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param";
  }
  if (eq.size === 0 && (lowerCount === 0 || upperCount === 0)) {
    return "Timestamp range must have gt (or gte) and lt (or lte), or eq operator";
  }
  if (earliest !== null && latest !== null) {
    const difference = latest - earliest + 1n;
    if (difference > MAX_TOPIC_RANGE_NS || difference <= 0n) {
      return "Timestamp range by the lower and upper bounds must be positive and within 7d";
    }
  }
  return null;
}

function readLogFilters(
  filters: readonly LogFilter[],
  defaultLimit: number,
): Omit<ContractLogsRequest, "paging"> | { message: string } {
  const altered = alterTimestampRange(filters);
  const hasTopic = altered.some((f) => f.key.startsWith("topic"));
  if (hasTopic) {
    const stamps = altered
      .filter((f) => f.key === "timestamp")
      .map((f) => ({ op: f.op, value: f.value as bigint }));
    const problem = strictTimestampRangeProblem(stamps);
    if (problem !== null)
      return { message: `Cannot search topics without a valid timestamp range: ${problem}` };
  }
  const topics: string[][] = [[], [], [], []];
  const timestamp = emptyBound<bigint>("timestamp");
  const index = emptyBound<bigint>("index");
  let transactionHash: string | null = null;
  let boundsProblem: string | null = null;
  let limit = defaultLimit;
  let order: Order = "desc";
  for (const filter of altered) {
    switch (filter.key) {
      case "index":
        boundsProblem ??= addToBound(index, { op: filter.op, value: BigInt(filter.value as number) });
        break;
      case "timestamp":
        boundsProblem ??= addToBound(timestamp, { op: filter.op, value: filter.value as bigint });
        break;
      case "topic0":
      case "topic1":
      case "topic2":
      case "topic3":
        topics[Number(filter.key.slice(5))]?.push(filter.value as string);
        break;
      case "transaction.hash":
        if (transactionHash !== null) boundsProblem ??= "Only one transaction.hash filter is allowed";
        transactionHash = filter.value as string;
        break;
      case "limit":
        limit = filter.value as number;
        break;
      case "order":
        order = filter.value as Order;
        break;
    }
  }
  if (boundsProblem === null && index.equal !== null && timestamp.equal === null) {
    boundsProblem = "timestamp must have eq operator";
  }
  boundsProblem ??= validatePair(timestamp, index);
  return { topics, timestamp, index, transactionHash, boundsProblem, limit, order };
}

/** Parses `GET /api/v1/contracts/{contractIdOrAddress}/results/logs`. */
export function parseContractLogsByIdRequest(
  contractIdOrAddress: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractLogsByIdRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const contract = parseContractPathParam(contractIdOrAddress, opts);
  if (!contract.ok) return contract;
  const validated = validateFilters(
    request.value.query,
    logsSpec(opts, false),
    opts.maxRepeatedQueryParameters,
  );
  if (!validated.ok) return validated;
  const read = readLogFilters(validated.value as FilterOf<ReturnType<typeof logsSpec>>[], opts.defaultLimit);
  if ("message" in read) return fail([read.message]);
  return succeed({
    ...read,
    contract: contract.value,
    paging: pagingFor(request.value, "timestamp", read.order, read.limit),
  });
}

/** Parses `GET /api/v1/contracts/results/logs`; every rule is checked before anything is read. */
export function parseContractLogsRequest(
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractLogsRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const validated = validateFilters(
    request.value.query,
    logsSpec(opts, true),
    opts.maxRepeatedQueryParameters,
  );
  if (!validated.ok) return validated;
  const read = readLogFilters(validated.value as LogFilter[], opts.defaultLimit);
  if ("message" in read) return fail([read.message]);
  if (read.boundsProblem !== null) return fail([read.boundsProblem]);
  return succeed({ ...read, paging: pagingFor(request.value, "timestamp", read.order, read.limit) });
}
