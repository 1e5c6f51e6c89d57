/**
 * The request of `GET /api/v1/contracts/results/{transactionIdOrHash}/opcodes`, read as upstream's web3
 * `OpcodesController` reads it: Spring resolves the arguments in their order (the path's id, then `stack`,
 * `memory`, `storage`, then the required `Accept-Encoding` header) before the method runs, so those errors come
 * first, whether the tracer is on or off; then a tracer switched off answers 404, and one on wants gzip.
 */
import type { IncomingHttpHeaders } from "node:http";
import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from "../../ids.ts";
import type { JavaHttpError } from "../java/index.ts";
import { web3Error } from "./errors.ts";

export type OpcodesLocator =
  | { kind: "hash" /** 64 lower-case hex digits. */; hash: string }
  | {
      kind: "id";
      payerId: bigint;
      validStartNs: bigint /** Upstream's rendering of the id, for its 404. */;
      text: string;
    };

export type OpcodesRequest = {
  locator: OpcodesLocator;
  stack: boolean;
  memory: boolean;
  storage: boolean;
};

/** The path shapes upstream's ingress sends to web3; any other is the Node service's (no such route: 404). */
export const OPCODES_PATH_SHAPE = /^(?:(?:0x)?[0-9A-Fa-f]{64}|\d+\.\d+\.\d+-\d+-\d+)$/;

const HASH = /^(?:0x)?([0-9A-Fa-f]{64})$/;
const TRANSACTION_ID = /^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$/;
const MAX_LONG = (1n << 63n) - 1n;
/** `Instant.MAX`'s seconds: a later valid start fails `Instant.ofEpochSecond`. */
const MAX_INSTANT_SECONDS = 31_556_889_864_403_199n;
const NS_PER_SECOND = 1_000_000_000n;

const invalid = (detail: string): JavaHttpError => web3Error(400, detail);

/** Java's `Long.parseLong` of a run of digits: its NumberFormatException text on overflow. */
function parseLong(digits: string): bigint {
  const value = BigInt(digits);
  if (value > MAX_LONG) throw invalid(`For input string: "${digits}"`);
  return value;
}

/** `Instant.toString()` of a non-negative instant: ISO-8601 in UTC, the fraction in groups of three digits. */
export function javaInstant(seconds: bigint, nanos: bigint): string {
  // Days to a civil date (H. Hinnant's algorithm), in bigint: valid starts reach far past what Date holds.
  const z = seconds / 86_400n + 719_468n;
  const era = z / 146_097n;
  const doe = z - era * 146_097n;
  const yoe = (doe - doe / 1_460n + doe / 36_524n - doe / 146_096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  const ofDay = seconds % 86_400n;
  const two = (n: bigint) => n.toString().padStart(2, "0");
  const yearText = year > 9999n ? `+${year}` : year.toString().padStart(4, "0");
  let fraction = nanos.toString().padStart(9, "0");
  while (fraction.endsWith("000")) fraction = fraction.slice(0, -3);
  const time = `${two(ofDay / 3600n)}:${two((ofDay / 60n) % 60n)}:${two(ofDay % 60n)}`;
  return `${yearText}-${two(month)}-${two(day)}T${time}${fraction === "" ? "" : `.${fraction}`}Z`;
}

/** `TransactionIdOrHashParameter.valueOf`: a 32-byte hash, else a transaction id, else 400. */
export function parseOpcodesLocator(text: string): OpcodesLocator {
  if (text.trim() === "") throw invalid("Missing transaction ID or hash");
  const hash = HASH.exec(text);
  if (hash !== null) return { kind: "hash", hash: hash[1]!.toLowerCase() };
  const id = TRANSACTION_ID.exec(text);
  if (id === null) throw invalid(`Unsupported ID format: '${text}'`);
  const [shard, realm, num, seconds] = [id[1]!, id[2]!, id[3]!, id[4]!].map(parseLong) as [
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  const nanos = BigInt(id[5]!);
  if (seconds > MAX_INSTANT_SECONDS) throw invalid("Instant exceeds minimum or maximum instant");
  if (shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) {
    throw invalid(`Invalid entity ID: ${shard}.${realm}.${num}`);
  }
  // `convertToNanosMax`: a valid start past the int64 range of nanoseconds saturates.
  const ns = seconds * NS_PER_SECOND + nanos;
  const validStartNs = ns > MAX_LONG ? MAX_LONG : ns;
  return {
    kind: "id",
    payerId: encodeEntityId(shard, realm, num),
    validStartNs,
    text: `TransactionIdParameter[payerAccountId=${shard}.${realm}.${num}, validStart=${javaInstant(seconds, nanos)}]`,
  };
}

const TRUE = new Set(["true", "on", "yes", "1"]);
const FALSE = new Set(["false", "off", "no", "0"]);

/** Spring's `StringToBooleanConverter` for a `@RequestParam boolean` with a default (the first value counts). */
function flag(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const raw = query.get(name);
  if (raw === null || raw.trim() === "") return fallback;
  const value = raw.trim().toLowerCase();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw invalid(`Invalid boolean value '${raw}'`);
}

/**
 * Reads the request in upstream's order; `enabled` is `--opcodes`. Throws the web3 error body upstream answers:
 * 400 for the id, a flag or a missing `Accept-Encoding`, 404 when the tracer is off, 406 without gzip.
 */
export function readOpcodesRequest(
  idText: string,
  url: string,
  headers: IncomingHttpHeaders,
  enabled: boolean,
): OpcodesRequest {
  const locator = parseOpcodesLocator(idText);
  const question = url.indexOf("?");
  const query = new URLSearchParams(question === -1 ? "" : url.slice(question + 1));
  const stack = flag(query, "stack", true);
  const memory = flag(query, "memory", false);
  const storage = flag(query, "storage", false);
  const acceptEncoding = headers["accept-encoding"];
  if (acceptEncoding === undefined) {
    throw invalid(
      "Required request header 'Accept-Encoding' for method parameter type String is not present",
    );
  }
  if (!enabled) throw web3Error(404, "404 NOT_FOUND");
  if (!acceptEncoding.toLowerCase().includes("gzip")) {
    throw web3Error(406, "Accept-Encoding: gzip header is required");
  }
  return { locator, stack, memory, storage };
}
