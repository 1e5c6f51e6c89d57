import { readFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import Long from "long";
import { describe, expect, it } from "vitest";
import { balanceFileName, writeBalanceFile } from "../../fixtures/writer/write-balance-file.ts";
import { encodeEntityId } from "../../src/ids.ts";
import { BalanceFileError, isBalanceFileName, parseBalanceFile } from "../../src/streams/balance-file.ts";
import { proto } from "../../src/streams/proto.ts";
import { REAL_STREAMS } from "../helpers/service.ts";

const real = (path: string) => readFileSync(`${REAL_STREAMS}balances/${path}`);
const V1 = "v1/balance0.0.3/2019-08-30T18_15_00.016002001Z_Balances.csv";
const V2 = "v2/balance0.0.3/2020-09-22T04_25_00.083212003Z_Balances.csv";
const PB = "proto/2021-03-08T20_15_00Z_Balances.pb.gz";

describe("real balance files", () => {
  it("reads the v1 CSV: timestamp line, 25,391 accounts, exact int64 balances", () => {
    const snapshot = parseBalanceFile(V1, real(V1));
    expect(snapshot.format).toBe("csv-v1");
    expect(snapshot.consensusNs).toBe(1567188900016002001n);
    expect(snapshot.accounts).toHaveLength(25391);
    expect(snapshot.accounts[1]).toEqual({ accountId: 2n, hbarTinybars: 2588856875379417355n, tokens: [] });
    // Every account of a v1 file holds no token column.
    expect(snapshot.accounts.every((a) => a.tokens.length === 0)).toBe(true);
  });

  it("reads the v2 CSV with its base64 TokenBalances column", () => {
    const snapshot = parseBalanceFile(V2, real(V2));
    expect(snapshot.format).toBe("csv-v2");
    expect(snapshot.consensusNs).toBe(1600748700083212003n);
    expect(snapshot.accounts).toHaveLength(106);
    const treasury = snapshot.accounts.find((a) => a.accountId === 2n);
    expect(treasury?.hbarTinybars).toBe(4990099993999999930n);
    expect(treasury?.tokens).toHaveLength(6);
    expect(treasury?.tokens[0]).toEqual({ tokenId: 1004n, balance: 900n });
    expect(snapshot.accounts.find((a) => a.accountId === 1n)?.tokens).toEqual([]);
  });

  it("reads the gzipped AllAccountBalances protobuf", () => {
    const snapshot = parseBalanceFile(PB, real(PB));
    expect(snapshot.format).toBe("protobuf");
    expect(snapshot.consensusNs).toBe(1615234500000000000n);
    expect(snapshot.accounts).toHaveLength(10);
    expect(snapshot.accounts[0]?.accountId).toBe(2000n);
    expect(snapshot.accounts[0]?.hbarTinybars).toBe(3000n);
    expect(snapshot.accounts[0]?.tokens).toHaveLength(5);
    // The same message without gzip is a `.pb` file.
    const plain = parseBalanceFile("2021-03-08T20_15_00Z_Balances.pb", gunzipSync(real(PB)));
    expect(plain.accounts).toEqual(snapshot.accounts);
  });

  it("recognizes balance file names only", () => {
    expect(isBalanceFileName("2019-08-30T18_15_00.016002001Z_Balances.csv")).toBe(true);
    expect(isBalanceFileName("2021-03-08T20_15_00Z_Balances.pb.gz")).toBe(true);
    expect(isBalanceFileName("2021-03-08T20_15_00Z_Balances.pb")).toBe(true);
    expect(isBalanceFileName("2019-08-30T18_15_00.016002001Z_Balances.csv_sig")).toBe(false);
    expect(isBalanceFileName("2022-07-13T08_46_08.041986003Z.rcd.gz")).toBe(false);
  });
});

describe("the fixture balance writer", () => {
  const snapshot = {
    consensusNs: 1719824399300000001n,
    accounts: [
      { num: 751n, hbarTinybars: 9_223_372_036_854_775_807n, tokens: [{ num: 753n, balance: 97_500n }] },
      { num: 2n, hbarTinybars: 4_999_999_000_000_000_000n, tokens: [] },
      { num: 98n, hbarTinybars: 0n, tokens: [{ num: 753n, balance: 0n }] },
    ],
  };

  it.each(["csv-v1", "csv-v2", "protobuf"] as const)(
    "writes %s that the reader reads back exactly",
    (format) => {
      const name = balanceFileName(snapshot.consensusNs, format);
      expect(isBalanceFileName(name)).toBe(true);
      const bytes = writeBalanceFile(snapshot, format);
      expect(writeBalanceFile(snapshot, format)).toEqual(bytes); // deterministic
      const read = parseBalanceFile(name, bytes);
      expect(read.format).toBe(format);
      expect(read.consensusNs).toBe(snapshot.consensusNs);
      expect(read.accounts).toEqual(
        [...snapshot.accounts]
          .sort((a, b) => Number(a.num - b.num))
          .map((a) => ({
            accountId: a.num,
            hbarTinybars: a.hbarTinybars,
            tokens: format === "csv-v1" ? [] : a.tokens.map((t) => ({ tokenId: t.num, balance: t.balance })),
          })),
      );
    },
  );

  it("names files as a node does", () => {
    expect(balanceFileName(1719824399300000001n, "csv-v2")).toBe(
      "2024-07-01T08_59_59.300000001Z_Balances.csv",
    );
    expect(balanceFileName(1719824399300000001n, "protobuf")).toBe(
      "2024-07-01T08_59_59.300000001Z_Balances.pb.gz",
    );
  });
});

describe("malformed balance files", () => {
  const csv = (text: string) => () => parseBalanceFile("x_Balances.csv", Buffer.from(text));
  const HEADER_V1 = "TimeStamp:2019-08-30T18:15:00.016002001Z\nshardNum,realmNum,accountNum,balance\n";
  const HEADER_V2 =
    "# version:2\n# TimeStamp:2020-09-22T04:25:00.083212003Z\nshardNum,realmNum,accountNum,balance,tokenBalances\n";

  it.each([
    ["", "has no column header line"],
    ["shardNum,realmNum,accountNum,balance\n0,0,2,5\n", "has no TimeStamp line before the column header"],
    ["TimeStamp:2019-08-30 18:15:00Z\n", 'at line 1: TimeStamp "2019-08-30 18:15:00Z" is not an ISO instant'],
    [
      "TimeStamp:2019-08-30T18:15:00Z\naccount,balance\n",
      "at line 2: expected a TimeStamp line or the column header",
    ],
    ["TimeStamp:2019-02-30T18:15:00Z\n", 'at line 1: TimeStamp "2019-02-30T18:15:00Z" is not a valid date'],
    [`${HEADER_V1}0,0,2\n`, "at line 3: expected 4 comma-separated fields, found 3"],
    [`${HEADER_V1}0,0,2,5\n0,0,3,-5\n`, 'at line 4: balance "-5" is not a whole number'],
    [`${HEADER_V1}0,0,x,5\n`, 'at line 3: accountNum "x" is not a whole number'],
    [
      `${HEADER_V1}0,0,2,9223372036854775808\n`,
      "at line 3: balance 9223372036854775808 does not fit an int64",
    ],
    [`${HEADER_V1}0,70000,2,5\n`, "at line 3: entity ID 0.70000.2 is outside 10/16/38-bit shard/realm/num"],
    [`${HEADER_V2}0,0,2,5,!!!\n`, "at line 4: tokenBalances is not base64"],
    [`${HEADER_V2}0,0,2,5\n`, "at line 4: expected 5 comma-separated fields, found 4"],
    [`${HEADER_V2}0,0,2,5,/w==\n`, "at line 4: tokenBalances is not a TokenBalances protobuf"],
  ])("CSV %j: %s", (text, message) => {
    expect(csv(text)).toThrow(BalanceFileError);
    expect(csv(text)).toThrow(message);
  });

  it("protobuf: not gzip, not AllAccountBalances, no timestamp, no account id", () => {
    const pb = (name: string, bytes: Uint8Array) => () => parseBalanceFile(name, bytes);
    expect(pb("x_Balances.pb.gz", Buffer.from("plain"))).toThrow(/^does not gunzip: /);
    expect(pb("x_Balances.pb", Buffer.from([0xff, 0xff]))).toThrow(
      /^is not an AllAccountBalances protobuf: /,
    );
    const noTime = proto.AllAccountBalances.encode({ allAccounts: [] }).finish();
    expect(pb("x_Balances.pb", noTime)).toThrow("has no consensusTimestamp");
    const noAccount = proto.AllAccountBalances.encode({
      consensusTimestamp: { seconds: Long.fromNumber(5) },
      allAccounts: [{ hbarBalance: Long.fromNumber(5, true) }],
    }).finish();
    expect(pb("x_Balances.pb.gz", gzipSync(noAccount))).toThrow("at account entry 1: no accountID");
  });

  it("keeps shard and realm of CSV rows", () => {
    const snapshot = parseBalanceFile("x_Balances.csv", Buffer.from(`${HEADER_V1}1,2,3,4\n`));
    expect(snapshot.accounts[0]?.accountId).toBe(encodeEntityId(1n, 2n, 3n));
  });
});
