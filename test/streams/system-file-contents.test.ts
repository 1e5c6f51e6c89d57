/**
 * System-file parsers accept what Java's `parseFrom` accepts: real address-book bytes, and refuse what it
 * refuses even where protobufjs would decode something.
 */
import { readFileSync } from "node:fs";
import Long from "long";
import { describe, expect, it } from "vitest";
import { addressBookEntries } from "../../src/ingest/handlers/address-book.ts";
import { proto } from "../../src/streams/proto.ts";
import {
  parseExchangeRateSet,
  parseFeeSchedule,
  parseNodeAddressBook,
} from "../../src/streams/system-file-contents.ts";

const REAL_BOOK = readFileSync(new URL("../../fixtures/real/addressbooks/test-v6-4n.bin", import.meta.url));
const ADDRESS_BOOK_102 = 102n;

describe("parseNodeAddressBook", () => {
  it("reads a real 4-node address book into one entry per node", () => {
    const book = parseNodeAddressBook(REAL_BOOK);
    expect(book?.nodeAddress).toHaveLength(4);
    const entries = addressBookEntries(book!, ADDRESS_BOOK_102)!;
    expect(entries.map((e) => [e.nodeId, e.accountId, e.memo])).toEqual([
      [0n, 3n, "0.0.3"],
      [1n, 4n, "0.0.4"],
      [2n, 5n, "0.0.5"],
      [3n, 6n, "0.0.6"],
    ]);
    for (const entry of entries) {
      expect(entry.publicKey).toMatch(/^308201a2[0-9a-f]{836}$/);
      // The deprecated IP text (port 0), then the ServiceEndpoint's 4 bytes as dotted text.
      expect(entry.serviceEndpoints[0]).toEqual({ domain_name: "", ip_address_v4: "127.0.0.1", port: 0 });
      expect(entry.serviceEndpoints[1]).toMatchObject({ domain_name: "", ip_address_v4: "127.0.0.1" });
    }
    expect(entries.map((e) => e.serviceEndpoints[1]?.port)).toEqual([50204, 50205, 50206, 50207]);
  });

  it("refuses a truncated book, and a node without an account", () => {
    expect(parseNodeAddressBook(REAL_BOOK.subarray(0, REAL_BOOK.length - 5))).toBeUndefined();
    const noAccount = proto.NodeAddressBook.encode({ nodeAddress: [{ description: "x" }] }).finish();
    expect(addressBookEntries(parseNodeAddressBook(noAccount)!, ADDRESS_BOOK_102)).toBeUndefined();
  });

  it("refuses invalid UTF-8 in a string field, as proto3 parsing does", () => {
    // NodeAddress.description (field 9) holding the byte 0xff.
    const address = Uint8Array.from([0x4a, 0x01, 0xff]);
    const book = Uint8Array.from([0x0a, address.length, ...address]);
    expect(parseNodeAddressBook(book)).toBeUndefined();
  });
});

describe("the wire-format check", () => {
  const rates = proto.ExchangeRateSet.encode({
    currentRate: { hbarEquiv: 1, centEquiv: 12, expirationTime: { seconds: Long.fromNumber(100) } },
  }).finish();

  it("accepts valid bytes, unknown fields and the empty message", () => {
    expect(parseExchangeRateSet(rates)?.currentRate?.centEquiv).toBe(12);
    expect(parseExchangeRateSet(Uint8Array.from([...rates, 0x78, 0x05]))).toBeDefined(); // field 15 varint
    expect(parseExchangeRateSet(new Uint8Array())).toBeDefined();
    expect(parseFeeSchedule(new Uint8Array())).toBeDefined();
  });

  it("refuses field 0, wire types 6 and 7, stray end groups, truncation and over-long varints", () => {
    const bad = [
      [0x00, 0x01], // field number 0
      [0x0e], // wire type 6
      [0x0f, 0x0f, 0x0f], // wire type 7
      [0x0c], // end group without a start
      [0x0b, 0x08, 0x01], // group never ended
      [0x0a, 0x05, 0x08], // length past the end
      [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], // 11-byte varint
      [0x0a, 0x02, 0x00, 0x00], // a bad sub-message (field 0 inside current_rate)
    ];
    for (const bytes of bad)
      expect(parseExchangeRateSet(Uint8Array.from(bytes)), bytes.join(",")).toBeUndefined();
  });
});
