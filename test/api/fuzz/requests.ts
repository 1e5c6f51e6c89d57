/**
 * Generators of hostile requests for the endpoints of `endpoints.ts`: valid values taken from the scenario's
 * own ledger, boundary values, malformed and unicode text, operators (known, unknown, upper-case), repeated
 * parameters (past the limit of 100), percent-encoding errors, and URLs on either side of the header limits (8 KiB
 * on the Java-style routes, 16 KiB on all).
 */
import fc from "fast-check";
import { encodeBase32 } from "../../../src/api/base32.ts";
import type { ExpectedLedger } from "../../helpers/fixtures.ts";
import type { FuzzEndpoint, ValueKind } from "./endpoints.ts";

export type FuzzRequest = {
  url: string;
  /** The request path when it is the template filled with plain values (for OpenAPI checks), else null. */
  documentedPath: string | null;
};

const INT64_MAX = "9223372036854775807";
const BOUNDARY_NUMBERS = [
  "0",
  "1",
  "-1",
  INT64_MAX,
  "9223372036854775808",
  "18446744073709551616",
  "1".repeat(40),
  "01",
  "1e3",
  "0x10",
  " 1",
  "1.5",
];
const BOUNDARY_IDS = [
  "0.0.0",
  "0.0.1",
  "1.2.3",
  "0.0.4294967295",
  "0.0.274877906943",
  "0.0.274877906944",
  "32767.65535.274877906943",
  "0.0.-1",
  "0..1",
  "0.0.1.2",
  `0.0.${INT64_MAX}`,
  "0x0000000000000000000000000000000000000bb8",
  "0x1234567890abcdef1234567890abcdef12345678",
  "0x",
];
const BOUNDARY_TIMESTAMPS = [
  "0",
  "0.0",
  "1",
  "9999999999.999999999",
  "99999999999",
  "1717228800.1234567891",
  "1717228800.",
  ".5",
  "-1.0",
  `${INT64_MAX}.0`,
  "1717228800.000000000",
];
const OPERATORS = [
  "",
  "",
  "",
  "eq:",
  "ne:",
  "lt:",
  "lte:",
  "gt:",
  "gte:",
  "EQ:",
  "gte",
  "bogus:",
  ":",
  "lt:lt:",
];
const PERCENT_ERRORS = [
  "%",
  "%2",
  "%zz",
  "%E0%A4%A",
  "%C0%80",
  "%ED%A0%80",
  "%FF",
  "%00",
  "%25",
  "%2F",
  "%3F",
  "%26",
  "%3D",
];
const OTHER_NAMES = [
  "foo",
  "",
  "token.id[]",
  "limit[0]",
  "__proto__",
  "constructor",
  "LIMIT",
  "Order",
  "timestamp ",
  "account.id.x",
];

/** Text that is not what any parameter expects: printable, unicode (astral included), control characters. */
const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(
    "ℏ",
    "😀",
    "\u0000",
    "\u202e",
    "null",
    "undefined",
    "NaN",
    "true",
    "[]",
    "{}",
    "'",
    '"',
    "\\",
  ),
);

function ledgerValues(ledger: ExpectedLedger) {
  const tokens = Object.values(ledger.tokens);
  return {
    tokenIds: tokens.map((t) => t.id),
    accountIds: Object.values(ledger.accounts).map((a) => a.id),
    timestamps: ledger.steps.map((s) => s.consensusTimestamp),
    blockNumbers: ledger.blocks.map((b) => b.number),
    hashes: ledger.blocks.map((b) => b.hash),
    names: tokens.map((t) => t.name),
    keys: Object.values(ledger.accounts)
      .map((a) => a.key)
      .filter((k): k is string => k !== null),
    // Scenario summaries also carry each account's EVM address and alias (hex), where it has them.
    evmAddresses: Object.values(ledger.accounts)
      .map((a) => (a as { evmAddress?: string | null }).evmAddress)
      .filter((e): e is string => typeof e === "string"),
    aliases: Object.values(ledger.accounts)
      .map((a) => (a as { alias?: string | null }).alias)
      .filter((e): e is string => typeof e === "string")
      .map((hex) => encodeBase32(Buffer.from(hex, "hex"))),
    // Every spelling of an account path: IDs, EVM addresses, base32 aliases.
    accountPaths: Object.values(ledger.accounts).flatMap((a) => {
      const { evmAddress, alias } = a as { evmAddress?: string | null; alias?: string | null };
      const spellings = [a.id, a.id.split(".")[2]!];
      if (evmAddress) spellings.push(evmAddress, evmAddress.slice(2), `0.0.${evmAddress.slice(2)}`);
      if (alias) spellings.push(encodeBase32(Buffer.from(alias, "hex")));
      return spellings;
    }),
    topicIds: ledger.steps.filter((s) => s.type === "consensusCreateTopic").map((s) => s.entityId ?? "0.0.1"),
    scheduleIds: ledger.steps
      .filter((s) => s.type === "scheduleCreate" && s.entityId !== undefined)
      .map((s) => s.entityId!),
    transactionIds: ledger.steps
      .map((s) => (s as { transactionId?: string }).transactionId)
      .filter((id): id is string => id !== undefined),
  };
}

/** A value (without operator) of the given kind, not yet URL-encoded. */
export function valueArbitrary(
  kind: ValueKind,
  ledger: ExpectedLedger,
  wellFormed = false,
): fc.Arbitrary<string> {
  const v = ledgerValues(ledger);
  const numbers = fc.oneof(
    fc.constantFrom(...BOUNDARY_NUMBERS),
    fc.bigInt({ min: -10n, max: 2n ** 64n }).map(String),
  );
  const pick = (valid: fc.Arbitrary<string>, boundary: fc.Arbitrary<string>) =>
    wellFormed
      ? valid
      : fc.oneof(
          { weight: 5, arbitrary: valid },
          { weight: 3, arbitrary: boundary },
          { weight: 2, arbitrary: junk },
        );
  switch (kind) {
    case "tokenId":
      return pick(
        fc.oneof(
          fc.constantFrom(...v.tokenIds),
          fc.constantFrom(...v.tokenIds).map((id) => id.split(".")[2]!),
        ),
        fc.oneof(fc.constantFrom(...BOUNDARY_IDS), numbers),
      );
    case "accountId":
      return pick(fc.constantFrom(...v.accountIds), fc.oneof(fc.constantFrom(...BOUNDARY_IDS), numbers));
    case "serial":
    case "blockNumber":
    case "balance":
      return pick(
        kind === "blockNumber"
          ? fc.constantFrom(...v.blockNumbers)
          : fc.integer({ min: 0, max: 60 }).map(String),
        numbers,
      );
    case "timestamp":
      return pick(
        fc.constantFrom(...v.timestamps),
        fc.oneof(fc.constantFrom(...BOUNDARY_TIMESTAMPS), numbers),
      );
    case "limit":
      return pick(fc.integer({ min: 1, max: 100 }).map(String), numbers);
    case "order":
      return pick(fc.constantFrom("asc", "desc", "ASC", "Desc"), fc.constantFrom("", "ascending", "up"));
    case "tokenType":
      return pick(
        fc.constantFrom("ALL", "FUNGIBLE_COMMON", "NON_FUNGIBLE_UNIQUE", "all", "fungible_common"),
        fc.constantFrom("", "FUNGIBLE", "NFT"),
      );
    case "publicKey":
      return pick(
        fc.oneof(
          v.keys.length > 0
            ? fc.constantFrom(...v.keys.map((k) => k.slice(4)))
            : fc.constant("ab".repeat(32)),
          fc.stringMatching(/^(0x)?[0-9a-fA-F]{64}$/),
        ),
        fc.oneof(
          fc.stringMatching(/^[0-9a-f]{0,100}$/),
          fc.constantFrom("0x", `302a300506032b6570032100${"ab".repeat(32)}`),
        ),
      );
    case "name":
      return pick(
        fc.oneof(
          fc.constantFrom(...v.names).map((n) => n.slice(0, 5)),
          fc.stringMatching(/^[a-z%_\\]{3,30}$/),
        ),
        fc.oneof(
          fc.constantFrom(
            "ab",
            "x".repeat(100),
            "x".repeat(101),
            "é".repeat(50),
            "é".repeat(51),
            `${"%_".repeat(49)}!!`,
          ),
          fc.string({ minLength: 3, maxLength: 100 }),
        ),
      );
    case "fileId":
      // The address books (0.0.101, 0.0.102), as IDs or bare numbers.
      return pick(
        fc.constantFrom("0.0.101", "0.0.102", "101", "102", "0.0.111"),
        fc.oneof(fc.constantFrom(...BOUNDARY_IDS), numbers),
      );
    case "nodeId":
      return pick(
        fc.integer({ min: 0, max: 40 }).map(String),
        fc.oneof(fc.constantFrom(...BOUNDARY_IDS), numbers),
      );
    case "topicId":
      // The scenario's topics (and the first account when it has none), dotted and as bare numbers.
      return pick(
        fc
          .constantFrom(...(v.topicIds.length > 0 ? v.topicIds : v.accountIds))
          .chain((id) => fc.constantFrom(id, id.split(".")[2]!, `0.${id.split(".")[2]!}`)),
        fc.oneof(fc.constantFrom(...BOUNDARY_IDS, "-1", "-9223372036854775808"), numbers),
      );
    case "scheduleId":
      // The scenario's schedules (and the first account when it has none), in every spelling the path takes.
      return pick(
        fc
          .constantFrom(...(v.scheduleIds.length > 0 ? v.scheduleIds : v.accountIds))
          .chain((id) => fc.constantFrom(id, id.split(".")[2]!, `0.${id.split(".")[2]!}`)),
        fc.oneof(fc.constantFrom(...BOUNDARY_IDS, "-1", "0.7.8.9", "0x1"), numbers),
      );
    case "sequenceNumber":
      return pick(fc.integer({ min: 1, max: 40 }).map(String), numbers);
    case "encoding":
      return pick(
        fc.constantFrom("base64", "utf-8", "utf8", "UTF-8", "Base64"),
        fc.constantFrom("", "utf-16", "hex", "utf-8 ", "utf--8"),
      );
    case "supplyQuery":
      return pick(
        fc.constantFrom("totalcoins", "circulating", "TOTALCOINS", "Circulating"),
        fc.constantFrom("", "total", "totalcoins ", "circulating,totalcoins"),
      );
    case "accountPath":
      return pick(
        fc.constantFrom(...v.accountPaths),
        fc.oneof(
          fc.constantFrom(...BOUNDARY_IDS),
          fc.constantFrom("AABBCC22", "A".repeat(40), "0.0.AABBCC22", "1.2.AABBCC22", "aabbcc22", "A"),
          numbers,
        ),
      );
    case "accountIdOrAlias": {
      // /balances' account.id: IDs, one EVM address (no shard/realm prefix) or one alias.
      const named = fc.oneof(
        fc.constantFrom(...v.accountIds),
        fc.constantFrom(...v.accountIds).map((id) => id.split(".")[2]!),
        ...(v.evmAddresses.length > 0
          ? [fc.constantFrom(...v.evmAddresses), fc.constantFrom(...v.evmAddresses).map((e) => e.slice(2))]
          : []),
        ...(v.aliases.length > 0 ? [fc.constantFrom(...v.aliases)] : []),
      );
      return pick(
        named,
        fc.oneof(
          fc.constantFrom(...BOUNDARY_IDS, "AABBCC22", "0.0.AABBCC22", "AAA", "A", "aabbcc22"),
          numbers,
          fc.stringMatching(/^[A-Z2-7]{1,60}$/),
          fc.stringMatching(/^(0x|0\.0\.)?[0-9a-fA-F]{38,42}$/),
        ),
      );
    }
    case "boolean":
      return pick(
        fc.constantFrom("true", "false", "TRUE", "yes", "off", "0"),
        fc.constantFrom("", "maybe", "2"),
      );
    case "transactionType":
      return pick(
        fc.constantFrom(
          "CRYPTOTRANSFER",
          "cryptotransfer",
          "ConsensusCreateTopic",
          "SCHEDULECREATE",
          "TOKENMINT",
          "cryptoupdateaccount",
          "TOKENCREATION",
          "ETHEREUMTRANSACTION",
        ),
        fc.constantFrom("", "CRYPTO", "UNKNOWN", "ATOMIC_BATCH", "cryptotransfer "),
      );
    case "transactionResult":
      return pick(fc.constantFrom("success", "fail", "SUCCESS", "Fail"), fc.constantFrom("", "ok", "failed"));
    case "creditDebit":
      return pick(fc.constantFrom("credit", "debit", "CREDIT", "Debit"), fc.constantFrom("", "both", "cr"));
    case "nonce":
      return pick(
        fc.integer({ min: 0, max: 3 }).map(String),
        fc.constantFrom("2147483647", "2147483648", "-1"),
      );
    case "scheduled":
      return pick(fc.constantFrom("true", "false", "TRUE", "False"), fc.constantFrom("", "yes", "1"));
    case "transactionIdOrHash":
      return pick(
        fc.oneof(
          fc.constantFrom(...v.transactionIds),
          fc.stringMatching(/^[0-9a-f]{96}$/),
          fc.stringMatching(/^0x[0-9A-F]{96}$/),
          fc.stringMatching(/^[A-Za-z0-9_-]{64}$/),
        ),
        fc.oneof(
          fc.constantFrom(
            "0.0.2-1-1",
            "0.0.2-9999999999999999999-999999999",
            "0.0.2-1-1234567890",
            "0.0.274877906944-1-1",
            "1.2-3-4",
            "0.0.2@1717228800.000000000",
            "0.0.2-1717228800.000000000",
          ),
          fc.stringMatching(/^[0-9a-fA-F]{90,100}$/),
          numbers,
        ),
      );
    case "contractId":
      return pick(
        fc.oneof(
          fc.constantFrom(...v.accountIds),
          fc.constantFrom("0.0.1002", "1003", "0.1003", "0x00000000000000000000000000000000000003eb"),
          fc.stringMatching(/^(0x|0\.0\.)?[0-9a-f]{40}$/),
        ),
        fc.oneof(fc.constantFrom(...BOUNDARY_IDS), numbers, fc.stringMatching(/^(0x)?[0-9a-fA-F]{38,42}$/)),
      );
    case "contractTransactionIdOrHash":
      return pick(
        fc.oneof(fc.constantFrom(...v.transactionIds), fc.stringMatching(/^(0x)?[0-9a-f]{64}$/)),
        fc.oneof(
          fc.constantFrom("0.0.2-1-1", "0.0.2-9999999999999999999-999999999", "1.2-3-4"),
          fc.stringMatching(/^(0x)?[0-9a-fA-F]{60,100}$/),
          numbers,
        ),
      );
    case "blockHash":
      return pick(
        fc.oneof(
          fc.constantFrom(...v.hashes),
          fc.constantFrom(...v.hashes).map((h) => `0x${h.slice(0, 64)}`),
        ),
        fc.stringMatching(/^(0x)?[0-9a-fA-F]{60,100}$/),
      );
    case "topic":
    case "slot":
      return pick(
        fc.stringMatching(/^(0x)?[0-9a-f]{1,64}$/),
        fc.stringMatching(/^(0x)?[0-9a-fA-Fxq]{0,70}$/),
      );
    case "logIndex":
      return pick(
        fc.integer({ min: 0, max: 5 }).map(String),
        fc.oneof(numbers, fc.constantFrom("1.5", "-1", "")),
      );
    case "logTransactionHash":
      return pick(
        fc.oneof(fc.stringMatching(/^(0x)?[0-9a-f]{64}$/), fc.stringMatching(/^(0x)?[0-9a-f]{96}$/)),
        fc.stringMatching(/^(0x)?[0-9a-fA-F]{60,100}$/),
      );
    case "hashOrNumber":
      return pick(
        fc.oneof(
          fc.constantFrom(...v.blockNumbers),
          fc.constantFrom(...v.hashes),
          fc.constantFrom(...v.hashes).map((h) => `0x${h.slice(0, 64)}`),
        ),
        fc.oneof(numbers, fc.stringMatching(/^(0x)?[0-9a-fA-F]{60,100}$/)),
      );
  }
}

/** How one piece of the URL is written: encoded, raw, or with a percent-encoding error spliced in. */
const encoding = fc.constantFrom("encoded", "encoded", "encoded", "encoded", "raw", "broken");

function write(text: string, how: string, error: string): string {
  if (how === "encoded") return encodeURIComponent(text);
  // Raw: the sub-delimiters a client may leave unencoded (`+` then reads as a space, `:` as in operators).
  const raw = encodeURIComponent(text).replace(/%(3A|2C|2B|24|40|21|27|28|29|2A|3B)/g, (encoded) =>
    decodeURIComponent(encoded),
  );
  if (how === "raw") return raw;
  const at = Math.floor(raw.length / 2);
  return `${raw.slice(0, at)}${error}${raw.slice(at)}`;
}

/**
 * One request to `endpoint`: half of them well-formed (known parameters with valid values and the usual
 * operators, so that answers with data are fuzzed too), half hostile.
 */
export function requestTo(endpoint: FuzzEndpoint, ledger: ExpectedLedger): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(wellFormedRequest(endpoint, ledger), hostileRequest(endpoint, ledger));
}

const RANGE_OPERATORS = ["", "", "eq:", "lt:", "lte:", "gt:", "gte:"];

function wellFormedRequest(endpoint: FuzzEndpoint, ledger: ExpectedLedger): fc.Arbitrary<FuzzRequest> {
  const pathNames = Object.keys(endpoint.pathParams);
  const queryNames = Object.keys(endpoint.query);
  const pathValues = fc.tuple(
    ...pathNames.map((name) => valueArbitrary(endpoint.pathParams[name]!, ledger, true)),
  );
  const parameter =
    queryNames.length === 0
      ? fc.constant(null)
      : fc
          .tuple(fc.constantFrom(...queryNames), fc.constantFrom(...RANGE_OPERATORS))
          .chain(([name, op]) =>
            valueArbitrary(endpoint.query[name]!, ledger, true).map(
              (value) => `${encodeURIComponent(name)}=${encodeURIComponent(`${op}${value}`)}`,
            ),
          );
  return fc.tuple(pathValues, fc.array(parameter, { maxLength: 3 })).map(([values, parts]) => {
    let path = endpoint.path;
    pathNames.forEach((name, i) => {
      path = path.replace(`{${name}}`, encodeURIComponent(values[i]!));
    });
    const query = parts.filter((part): part is string => part !== null);
    return { url: query.length > 0 ? `${path}?${query.join("&")}` : path, documentedPath: path };
  });
}

function hostileRequest(endpoint: FuzzEndpoint, ledger: ExpectedLedger): fc.Arbitrary<FuzzRequest> {
  const pathNames = Object.keys(endpoint.pathParams);
  const queryNames = Object.keys(endpoint.query);
  const pathValues = fc.tuple(
    ...pathNames.map((name) =>
      fc.tuple(
        valueArbitrary(endpoint.pathParams[name]!, ledger),
        encoding,
        fc.constantFrom(...PERCENT_ERRORS),
      ),
    ),
  );
  const parameter = fc
    .tuple(
      queryNames.length > 0
        ? fc.oneof(
            { weight: 8, arbitrary: fc.constantFrom(...queryNames) },
            { weight: 1, arbitrary: fc.constantFrom(...queryNames).map((n) => n.toUpperCase()) },
            { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...OTHER_NAMES), junk) },
          )
        : fc.oneof(fc.constantFrom(...OTHER_NAMES), junk),
      fc.constantFrom(...OPERATORS),
      encoding,
      fc.constantFrom(...PERCENT_ERRORS),
      fc.constantFrom("value", "value", "value", "value", "empty", "no equals sign"),
    )
    .chain(([name, op, how, error, shape]) => {
      const kind = Object.hasOwn(endpoint.query, name) ? endpoint.query[name] : undefined;
      const value = kind === undefined ? junk : valueArbitrary(kind, ledger);
      return value.map((v) => {
        const key = write(name, how === "broken" ? "encoded" : how, error);
        if (shape === "no equals sign") return key;
        if (shape === "empty") return `${key}=`;
        return `${key}=${write(`${op}${v}`, how, error)}`;
      });
    });
  const query = fc.tuple(
    fc.array(parameter, { maxLength: 6 }),
    // Repeats: up to past the limit of 100 repeated values.
    fc.option(fc.tuple(parameter, fc.integer({ min: 2, max: 120 })), { freq: 5 }),
    // Padding to a URL just under or just over a header limit (the request's other headers take about 80 bytes):
    // a parameter repeated, or one long unknown parameter (kept in a next link by the Java-style routes).
    fc.option(
      fc.tuple(
        fc.constantFrom("limit=1", "x=y", `name=${"a".repeat(100)}`, "%25", "one long"),
        fc.constantFrom(8000, 8400, 15_800, 17_000),
      ),
      { freq: 10 },
    ),
  );
  const pathShape = fc.constantFrom(
    "plain",
    "plain",
    "plain",
    "plain",
    "trailing slash",
    "upper case",
    "double slash",
  );
  return fc.tuple(pathValues, query, pathShape).map(([values, [parts, repeat, pad], shape]) => {
    let path = endpoint.path;
    let plain = true;
    pathNames.forEach((name, i) => {
      const [value, how, error] = values[i]!;
      if (how !== "encoded") plain = false;
      path = path.replace(`{${name}}`, write(value, how, error));
    });
    const documentedPath = plain && shape === "plain" ? path : null;
    if (shape === "trailing slash") path += "/";
    if (shape === "upper case") path = path.toUpperCase();
    if (shape === "double slash") path = path.replace("/v1/", "/v1//");
    const all = [...parts];
    if (repeat !== null) for (let i = 0; i < repeat[1]; i++) all.push(repeat[0]);
    let url = all.length > 0 ? `${path}?${all.join("&")}` : path;
    if (pad !== null) {
      const [padding, target] = pad;
      url += url.includes("?") ? "&" : "?";
      if (padding === "one long") url += `x=${"y".repeat(Math.max(0, target - url.length - 2))}`;
      else while (url.length + padding.length + 1 <= target) url += `${padding}&`;
    }
    return { url, documentedPath };
  });
}
