import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import Long from "long";
import { describe, expect, it } from "vitest";
import { CorruptFileError } from "../../src/errors.ts";
import { readAddressBook } from "../../src/streams/address-book.ts";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import { FIXTURE_KEYS, listReal, readReal } from "./signature-record-hashes.ts";

function spkiHex(key: ReturnType<typeof createPublicKey>): string {
  return key.export({ type: "spki", format: "der" }).toString("hex");
}

function corruptMessage(bytes: Uint8Array): string {
  try {
    readAddressBook(bytes, "book.bin");
  } catch (error) {
    expect(error).toBeInstanceOf(CorruptFileError);
    return (error as Error).message;
  }
  throw new Error("address book was accepted");
}

const encodeBook = (nodeAddress: proto.INodeAddress[]) =>
  proto.NodeAddressBook.encode({ nodeAddress }).finish();
const realKeyHex = proto.NodeAddressBook.decode(readReal("addressbooks/test-v6-4n.bin")).nodeAddress[0]!
  .RSA_PubKey!;

describe("readAddressBook on real address books", () => {
  it.each(listReal("addressbooks/", ""))(
    "reads %s: nodes 0.0.3 to 0.0.6, each with its 3072-bit RSA key",
    (path) => {
      const bytes = readReal(path);
      const book = readAddressBook(bytes, path);
      expect([...book.keys()]).toEqual(["0.0.3", "0.0.4", "0.0.5", "0.0.6"]);
      const raw = proto.NodeAddressBook.decode(bytes).nodeAddress;
      for (const [index, key] of [...book.values()].entries()) {
        expect(key.asymmetricKeyType).toBe("rsa");
        expect(key.asymmetricKeyDetails?.modulusLength).toBe(3072);
        expect(spkiHex(key)).toBe(raw[index]!.RSA_PubKey!.toLowerCase());
      }
    },
  );

  it("takes node ids from the memo when the book has no nodeAccountId (test-v1)", () => {
    const raw = proto.NodeAddressBook.decode(readReal("addressbooks/test-v1")).nodeAddress;
    expect(raw.every((address) => address.nodeAccountId == null)).toBe(true);
    expect([...readAddressBook(readReal("addressbooks/test-v1")).keys()]).toEqual([
      "0.0.3",
      "0.0.4",
      "0.0.5",
      "0.0.6",
    ]);
  });
});

describe("the fixture address book", () => {
  const bytes = readFileSync(new URL("address-book.bin", FIXTURE_KEYS));

  it("holds node 0.0.3 (node id 0) with the public half of node-0.0.3.key.pem", () => {
    const privateKey = createPrivateKey(readFileSync(new URL("node-0.0.3.key.pem", FIXTURE_KEYS)));
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
    const book = readAddressBook(bytes, "address-book.bin");
    expect([...book.keys()]).toEqual(["0.0.3"]);
    expect(book.get("0.0.3")!.equals(createPublicKey(privateKey))).toBe(true);
    const [entry] = proto.NodeAddressBook.decode(bytes).nodeAddress;
    expect(toBigInt(entry!.nodeId)).toBe(0n);
    expect(toBigInt(entry!.nodeAccountId!.accountNum)).toBe(3n);
  });
});

describe("readAddressBook on malformed input", () => {
  it("refuses undecodable bytes", () => {
    expect(corruptMessage(Uint8Array.of(0x0a, 0xff, 0x01))).toMatch(/book\.bin: undecodable NodeAddressBook/);
  });

  it("refuses an entry with no usable node id", () => {
    const bytes = encodeBook([{ memo: Buffer.from("node three"), RSA_PubKey: realKeyHex }]);
    expect(corruptMessage(bytes)).toMatch(
      /entry 0 has no nodeAccountId and its memo "node three" is not an account id/,
    );
  });

  it("refuses a key that is not hex, not DER, or not RSA", () => {
    const id = { accountNum: Long.fromNumber(7) };
    expect(corruptMessage(encodeBook([{ nodeAccountId: id, RSA_PubKey: "30zz" }]))).toMatch(
      /node 0\.0\.7: RSA_PubKey is not hex/,
    );
    expect(corruptMessage(encodeBook([{ nodeAccountId: id, RSA_PubKey: "3003020100" }]))).toMatch(
      /not an X\.509 public key/,
    );
    const ed25519 = spkiHex(generateKeyPairSync("ed25519").publicKey);
    expect(corruptMessage(encodeBook([{ nodeAccountId: id, RSA_PubKey: ed25519 }]))).toMatch(
      /holds a key of type ed25519, not RSA/,
    );
  });

  it("accepts a node listed twice with one key, and refuses one listed with two keys", () => {
    const otherKeyHex = proto.NodeAddressBook.decode(readReal("addressbooks/test-v6-4n.bin")).nodeAddress[1]!
      .RSA_PubKey!;
    const memo = Buffer.from("0.0.3");
    expect(
      readAddressBook(
        encodeBook([
          { memo, RSA_PubKey: realKeyHex },
          { memo, RSA_PubKey: realKeyHex },
        ]),
      ).size,
    ).toBe(1);
    expect(
      corruptMessage(
        encodeBook([
          { memo, RSA_PubKey: realKeyHex },
          { memo, RSA_PubKey: otherKeyHex },
        ]),
      ),
    ).toMatch(/node 0\.0\.3 is listed with two different RSA keys/);
  });
});
