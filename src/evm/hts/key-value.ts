import { encodeEntityId } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { longZeroAddress } from "../address.ts";
import { type AbiValue, addressWord, boolWord, bytesValue, tupleValue } from "./abi.ts";

const EMPTY = new Uint8Array(0);
const ZERO_ADDRESS = new Uint8Array(20);

function contractAddress(id: proto.IContractID | null | undefined): Uint8Array {
  if (id == null) return ZERO_ADDRESS;
  if (id.evmAddress != null && id.evmAddress.length === 20) return id.evmAddress;
  return longZeroAddress(
    encodeEntityId(toBigInt(id.shardNum), toBigInt(id.realmNum), toBigInt(id.contractNum)),
  );
}

/**
 * The token service's `KeyValue` of a protobuf `Key` (`keyTupleFor`): inheritAccountKey (always false), the
 * contract id, the ED25519 and ECDSA(secp256k1) key bytes, the delegatable contract id; a key list or threshold
 * key shows as all empty. `null` is the empty `KeyValue` upstream answers without a key.
 */
export function keyValue(bytes: Uint8Array | null): AbiValue {
  const key = bytes === null ? null : proto.Key.decode(bytes);
  return tupleValue(
    boolWord(false),
    addressWord(contractAddress(key?.contractID)),
    bytesValue(key?.ed25519 ?? EMPTY),
    bytesValue(key?.ECDSASecp256k1 ?? EMPTY),
    addressWord(contractAddress(key?.delegatableContractId)),
  );
}
