/**
 * Account balance snapshot files, as a consensus node writes them into its `balance0.0.N` folder: the state of
 * every account (hbar and token balances) at one consensus instant. Three layouts exist:
 *
 * - CSV v1 (2019–2020): a `TimeStamp:<ISO instant>` line, the header `shardNum,realmNum,accountNum,balance`,
 *   then one line per account.
 * - CSV v2 (2020–2021): `# version:2` and `# TimeStamp:<ISO instant>` lines, the header
 *   `shardNum,realmNum,accountNum,balance,tokenBalances`; the last column is a base64 `TokenBalances` protobuf
 *   (empty when the account holds no token).
 * - protobuf (2021 on): an `AllAccountBalances` message, usually gzip-compressed (`.pb.gz`).
 *
 * A snapshot at T is the state after every transaction with consensus time at or before T.
 */
import { encodeEntityId, entityIdOf } from "../ids.ts";
import { MAX_INT64 } from "../int64.ts";
import { timestampToNs } from "../time.ts";
import { FileTooLargeError, gunzipBounded, MAX_DECOMPRESSED_BYTES, TOO_LARGE_HINT } from "./decompress.ts";
import { toBigInt } from "./long.ts";
import { proto } from "./proto.ts";

export type TokenUnitBalance = { tokenId: bigint; balance: bigint };

export type AccountBalanceEntry = {
  /** Encoded entity id (see ids.ts). */
  accountId: bigint;
  hbarTinybars: bigint;
  tokens: TokenUnitBalance[];
};

export type BalanceSnapshot = {
  consensusNs: bigint;
  format: "csv-v1" | "csv-v2" | "protobuf";
  accounts: AccountBalanceEntry[];
};

/** A balance file that does not read as any layout; the message says where and what is wrong. */
export class BalanceFileError extends Error {}

const BALANCE_FILE = /_Balances\.(csv|pb|pb\.gz)$/;

/** Whether a file name is an account balance snapshot (signature files and others are not). */
export function isBalanceFileName(name: string): boolean {
  return BALANCE_FILE.test(name);
}

/**
 * Parses a balance file by its name's extension; a `.gz` one decompresses to at most `maxBytes`. Throws
 * BalanceFileError naming what is wrong.
 */
export function parseBalanceFile(
  name: string,
  bytes: Uint8Array,
  maxBytes = MAX_DECOMPRESSED_BYTES,
): BalanceSnapshot {
  if (name.endsWith(".csv")) return parseBalanceCsv(Buffer.from(bytes).toString("utf8"));
  let raw = bytes;
  if (name.endsWith(".gz")) {
    try {
      raw = gunzipBounded(bytes, maxBytes);
    } catch (error) {
      if (error instanceof FileTooLargeError) throw new BalanceFileError(`${error.message}${TOO_LARGE_HINT}`);
      throw new BalanceFileError(`does not gunzip: ${(error as Error).message}`);
    }
  }
  return parseBalanceProtobuf(raw);
}

/** The protobuf layout: an `AllAccountBalances` message. */
export function parseBalanceProtobuf(bytes: Uint8Array): BalanceSnapshot {
  let message: proto.AllAccountBalances;
  try {
    message = proto.AllAccountBalances.decode(bytes);
  } catch (error) {
    throw new BalanceFileError(`is not an AllAccountBalances protobuf: ${(error as Error).message}`);
  }
  if (message.consensusTimestamp == null) throw new BalanceFileError("has no consensusTimestamp");
  const consensusNs = timestampToNs(message.consensusTimestamp);
  const accounts = message.allAccounts.map((entry, index) => {
    const accountId = entityIdOf(entry.accountID);
    if (accountId === null) throw new BalanceFileError(`at account entry ${index + 1}: no accountID`);
    const tokens = (entry.tokenUnitBalances ?? []).map((token, t) => {
      const tokenId = entityIdOf(token.tokenId);
      if (tokenId === null) {
        throw new BalanceFileError(`at account entry ${index + 1}: token balance ${t + 1} has no tokenId`);
      }
      return { tokenId, balance: checkedInt64(toBigInt(token.balance), `at account entry ${index + 1}`) };
    });
    return {
      accountId,
      hbarTinybars: checkedInt64(toBigInt(entry.hbarBalance), `at account entry ${index + 1}`),
      tokens,
    };
  });
  return { consensusNs, format: "protobuf", accounts };
}

const V1_HEADER = "shardnum,realmnum,accountnum,balance";
const V2_HEADER = "shardnum,realmnum,accountnum,balance,tokenbalances";

/** Both CSV layouts; the header line decides which. */
export function parseBalanceCsv(text: string): BalanceSnapshot {
  const lines = text.split(/\r?\n/);
  let consensusNs: bigint | null = null;
  let format: "csv-v1" | "csv-v2" | null = null;
  let lineNo = 0;
  for (; lineNo < lines.length; lineNo++) {
    const line = (lines[lineNo] ?? "").trim();
    if (line === "") continue;
    const timestamp = /^#?\s*timestamp:\s*(.*)$/i.exec(line);
    if (timestamp) {
      consensusNs = parseIsoInstant(timestamp[1] ?? "", lineNo + 1);
      continue;
    }
    if (/^#\s*version:\s*2$/i.test(line)) continue;
    const header = line.replace(/\s+/g, "").toLowerCase();
    if (header === V1_HEADER) format = "csv-v1";
    else if (header === V2_HEADER) format = "csv-v2";
    else throw new BalanceFileError(`at line ${lineNo + 1}: expected a TimeStamp line or the column header`);
    lineNo++;
    break;
  }
  if (format === null) throw new BalanceFileError("has no column header line");
  if (consensusNs === null) throw new BalanceFileError("has no TimeStamp line before the column header");
  const width = format === "csv-v1" ? 4 : 5;
  const accounts: AccountBalanceEntry[] = [];
  for (; lineNo < lines.length; lineNo++) {
    const line = (lines[lineNo] ?? "").trim();
    if (line === "") continue;
    const where = `at line ${lineNo + 1}`;
    const fields = line.split(",");
    if (fields.length !== width) {
      throw new BalanceFileError(
        `${where}: expected ${width} comma-separated fields, found ${fields.length}`,
      );
    }
    const [shard, realm, num, balance] = fields.slice(0, 4).map((field, i) => wholeNumber(field, i, where));
    let accountId: bigint;
    try {
      accountId = encodeEntityId(shard ?? 0n, realm ?? 0n, num ?? 0n);
    } catch (error) {
      throw new BalanceFileError(`${where}: ${(error as Error).message}`);
    }
    const tokens = format === "csv-v2" ? decodeTokenBalances(fields[4] ?? "", where) : [];
    accounts.push({ accountId, hbarTinybars: balance ?? 0n, tokens });
  }
  return { consensusNs, format, accounts };
}

const COLUMNS = ["shardNum", "realmNum", "accountNum", "balance"];

function wholeNumber(field: string, index: number, where: string): bigint {
  const text = field.trim();
  if (!/^\d{1,19}$/.test(text)) {
    throw new BalanceFileError(`${where}: ${COLUMNS[index]} "${text.slice(0, 40)}" is not a whole number`);
  }
  return checkedInt64(BigInt(text), where);
}

function checkedInt64(value: bigint, where: string): bigint {
  if (value > MAX_INT64) throw new BalanceFileError(`${where}: balance ${value} does not fit an int64`);
  return value;
}

function decodeTokenBalances(field: string, where: string): TokenUnitBalance[] {
  const text = field.trim();
  if (text === "") return [];
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) {
    throw new BalanceFileError(`${where}: tokenBalances is not base64`);
  }
  let message: proto.TokenBalances;
  try {
    message = proto.TokenBalances.decode(Buffer.from(text, "base64"));
  } catch (error) {
    throw new BalanceFileError(
      `${where}: tokenBalances is not a TokenBalances protobuf: ${(error as Error).message}`,
    );
  }
  return message.tokenBalances.map((token) => {
    const tokenId = entityIdOf(token.tokenId);
    if (tokenId === null) throw new BalanceFileError(`${where}: a token balance has no tokenId`);
    return { tokenId, balance: checkedInt64(toBigInt(token.balance), where) };
  });
}

/** `2019-08-30T18:30:00.010147001Z` (fraction optional, right-padded to nanoseconds) → ns since the epoch. */
export function parseIsoInstant(text: string, line: number): bigint {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/.exec(text);
  if (!match)
    throw new BalanceFileError(`at line ${line}: TimeStamp "${text.slice(0, 40)}" is not an ISO instant`);
  const [, y, mo, d, h, mi, s, fraction] = match;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Date.UTC rolls 2021-13-08 over into 2022: only a date that prints back the same is one.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== `${y}-${mo}-${d}T${h}:${mi}:${s}`) {
    throw new BalanceFileError(`at line ${line}: TimeStamp "${text}" is not a valid date`);
  }
  return BigInt(ms / 1000) * 1_000_000_000n + BigInt((fraction ?? "").padEnd(9, "0"));
}
