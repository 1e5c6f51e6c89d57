import { createPublicKey, type KeyObject } from "node:crypto";
import { CorruptFileError } from "../errors.ts";
import { toBigInt } from "./long.ts";
import { proto } from "./proto.ts";

/** A consensus node's RSA public key, the one that signs its record stream signature files. */
export type NodeKey = KeyObject;

const ACCOUNT_ID_TEXT = /^\d+\.\d+\.\d+$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * Reads a `NodeAddressBook` (the contents of file 0.0.101/0.0.102) into node account id (`"0.0.3"`) → RSA
 * public key. The id comes from `nodeAccountId`, or from the memo in older books that only have that; the
 * key is `RSA_PubKey`, the hex of an X.509 DER SubjectPublicKeyInfo. Older books list a node once per IP
 * address, so repeats are fine as long as they carry the same key.
 */
export function readAddressBook(bytes: Uint8Array, name = "address book"): Map<string, NodeKey> {
  let book: proto.NodeAddressBook;
  try {
    book = proto.NodeAddressBook.decode(bytes);
  } catch (error) {
    throw new CorruptFileError(name, `undecodable NodeAddressBook protobuf: ${String(error)}`, {
      cause: error,
    });
  }
  const keys = new Map<string, NodeKey>();
  for (const [index, address] of book.nodeAddress.entries()) {
    const accountId = readAccountId(name, address, index);
    const key = readPublicKey(name, address, accountId);
    const earlier = keys.get(accountId);
    if (earlier !== undefined && !earlier.equals(key)) {
      throw new CorruptFileError(name, `node ${accountId} is listed with two different RSA keys`);
    }
    keys.set(accountId, key);
  }
  return keys;
}

function readAccountId(name: string, address: proto.INodeAddress, index: number): string {
  const id = address.nodeAccountId;
  if (id != null) {
    return `${toBigInt(id.shardNum)}.${toBigInt(id.realmNum)}.${toBigInt(id.accountNum)}`;
  }
  const memo = Buffer.from(address.memo ?? []).toString("utf8");
  if (ACCOUNT_ID_TEXT.test(memo)) return memo;
  throw new CorruptFileError(
    name,
    `entry ${index} has no nodeAccountId and its memo ${JSON.stringify(memo)} is not an account id`,
  );
}

function readPublicKey(name: string, address: proto.INodeAddress, accountId: string): KeyObject {
  const hex = address.RSA_PubKey ?? "";
  if (!HEX.test(hex)) throw new CorruptFileError(name, `node ${accountId}: RSA_PubKey is not hex`);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(hex, "hex"), format: "der", type: "spki" });
  } catch (error) {
    throw new CorruptFileError(name, `node ${accountId}: RSA_PubKey is not an X.509 public key`, {
      cause: error,
    });
  }
  if (key.asymmetricKeyType !== "rsa") {
    throw new CorruptFileError(
      name,
      `node ${accountId}: RSA_PubKey holds a key of type ${key.asymmetricKeyType}, not RSA`,
    );
  }
  return key;
}
