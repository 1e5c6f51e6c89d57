/**
 * What a transaction's state changes say that its record would have: the ids of entities it created, token
 * supplies, topic sequence numbers and running hashes, accounts by alias, pending airdrop amounts. Built as the
 * mirror node importer's `StateChangeContext` is, from the `StateChanges` that share the transaction's consensus
 * time (a child transaction reads its parent's), and only when a transformer asks.
 */
import type Long from "long";
import { CONTRACT_STATE, STATE, STATE_ID } from "./block-items.ts";
import { toBigInt } from "./long.ts";
import { proto } from "./proto.ts";
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT, WireReader } from "./protobuf-wire.ts";

export type TopicMessageState = { sequenceNumber: Long | number; runningHash: Uint8Array };

/** The key an id message is known by in the context's maps. */
export function idKey(
  id: { shardNum?: Long | number | null; realmNum?: Long | number | null } & Record<string, unknown>,
  num: string,
): string {
  return `${toBigInt(id.shardNum)}.${toBigInt(id.realmNum)}.${toBigInt(id[num] as Long | number | null)}`;
}

const byNum = (field: string) => (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const x = toBigInt(a[field] as Long | number | null);
  const y = toBigInt(b[field] as Long | number | null);
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * A context is built for most transactions (every consensus message asks for its topic's running hash) and
 * usually holds one or two changes, so its collections are created on first use, from these.
 */
const NO_ENTRIES: ReadonlyMap<string, never> = new Map<string, never>();

export class StateChangeContext {
  private accounts: Map<string, proto.Account> | undefined;
  private accountIdsByAlias: Map<string, proto.AccountID> | undefined;
  private contractIdsByAlias: Map<string, proto.IContractID> | undefined;
  private fileIds: proto.FileID[] | undefined;
  private nodeIds: bigint[] | undefined;
  private tokenIds: proto.TokenID[] | undefined;
  private tokenSupplies: Map<string, bigint> | undefined;
  private topicIds: proto.TopicID[] | undefined;
  private topicMessages: Map<string, TopicMessageState> | undefined;
  private pendingFungibleAirdrops: Map<string, bigint> | undefined;
  /** Storage values written, by `<contract>/<slot hex>` (a deleted slot: empty, i.e. zero). */
  private slots: Map<string, Uint8Array> | undefined;
  /** Slot keys written (not identical) per contract, in order. */
  private writtenKeys: Map<string, Uint8Array[]> | undefined;
  private bytecodes: Map<string, Uint8Array> | undefined;

  constructor(name: string, stateChanges: readonly Uint8Array[]) {
    for (const changes of stateChanges) {
      const reader = new WireReader(name, changes, "StateChanges");
      while (reader.pos < changes.length) {
        const tag = reader.tag(changes.length);
        if (tag >>> 3 === STATE.changesList && (tag & 7) === WIRE_LENGTH_DELIMITED) {
          this.addChange(name, reader.lengthDelimited(changes.length));
        } else reader.skip(tag & 7, changes.length);
      }
    }
    this.fileIds?.sort(byNum("fileNum") as never);
    this.nodeIds?.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.tokenIds?.sort(byNum("tokenNum") as never);
    this.topicIds?.sort(byNum("topicNum") as never);
  }

  account(id: proto.IAccountID): proto.Account | undefined {
    return (this.accounts ?? NO_ENTRIES).get(idKey(id as never, "accountNum"));
  }

  accountIdByAlias(alias: Uint8Array): proto.AccountID | undefined {
    return (this.accountIdsByAlias ?? NO_ENTRIES).get(Buffer.from(alias).toString("hex"));
  }

  /** The contract whose account in state changes has this EVM address as its alias. */
  contractIdByEvmAddress(address: Uint8Array): proto.IContractID | undefined {
    return (this.contractIdsByAlias ?? NO_ENTRIES).get(Buffer.from(address).toString("hex"));
  }

  /** The value a transaction unit left in a contract's storage slot (undefined: not written). */
  slotValue(contractId: proto.IContractID, key: Uint8Array): Uint8Array | undefined {
    return (this.slots ?? NO_ENTRIES).get(`${idKey(contractId as never, "contractNum")}/${slotHex(key)}`);
  }

  /** The slot keys the unit wrote in a contract's storage (non-identical changes), in order. */
  writtenSlots(contractId: proto.IContractID): readonly Uint8Array[] {
    return (this.writtenKeys ?? NO_ENTRIES).get(idKey(contractId as never, "contractNum")) ?? [];
  }

  /** The runtime bytecode the unit stored for a contract. */
  bytecode(contractId: proto.IContractID): Uint8Array | undefined {
    return (this.bytecodes ?? NO_ENTRIES).get(idKey(contractId as never, "contractNum"));
  }

  /** The highest file id not claimed yet (creations are transformed newest first). */
  newFileId(): proto.FileID | undefined {
    return this.fileIds?.pop();
  }

  newNodeId(): bigint | undefined {
    return this.nodeIds?.pop();
  }

  newTokenId(): proto.TokenID | undefined {
    return this.tokenIds?.pop();
  }

  newTopicId(): proto.TopicID | undefined {
    return this.topicIds?.pop();
  }

  /** Claims the topic's sequence number and running hash after a message. */
  topicMessage(topicId: proto.ITopicID): TopicMessageState | undefined {
    const key = idKey(topicId as never, "topicNum");
    const message = this.topicMessages?.get(key);
    this.topicMessages?.delete(key);
    return message;
  }

  /**
   * The token's supply as the state changes leave it, then moved by `change` for the transaction before (a
   * mint passes minus its amount, a burn or wipe plus it).
   */
  trackTokenSupply(tokenId: proto.ITokenID, change: bigint): bigint | undefined {
    const key = idKey(tokenId as never, "tokenNum");
    const supply = this.tokenSupplies?.get(key);
    if (supply === undefined) return undefined;
    this.tokenSupplies!.set(key, supply + change);
    return supply;
  }

  /** A fungible pending airdrop's amount in state, less what this airdrop added to it for the ones before. */
  trackPendingFungibleAirdrop(id: proto.IPendingAirdropId, change: bigint): bigint | undefined {
    const key = pendingAirdropKey(id);
    const amounts = this.pendingFungibleAirdrops;
    const amount = amounts?.get(key);
    if (amounts === undefined || amount === undefined) return undefined;
    amounts.delete(key);
    if (change < amount) amounts.set(key, amount - change);
    return amount;
  }

  private addChange(name: string, bytes: Uint8Array): void {
    const reader = new WireReader(name, bytes, "StateChange");
    let stateId = 0;
    let update: Uint8Array | null = null;
    let deleted: Uint8Array | null = null;
    while (reader.pos < bytes.length) {
      const tag = reader.tag(bytes.length);
      if (tag >>> 3 === STATE.changeStateId && (tag & 7) === WIRE_VARINT)
        stateId = reader.uint32(bytes.length);
      else if (tag >>> 3 === STATE.changeMapUpdate && (tag & 7) === WIRE_LENGTH_DELIMITED) {
        update = reader.lengthDelimited(bytes.length);
      } else if (tag >>> 3 === CONTRACT_STATE.mapDelete && (tag & 7) === WIRE_LENGTH_DELIMITED) {
        deleted = reader.lengthDelimited(bytes.length);
      } else reader.skip(tag & 7, bytes.length);
    }
    if (deleted !== null && stateId === STATE_ID.storage) {
      // A slot set to zero leaves the map: the value written is zero (empty).
      const key = mapUpdateParts(name, deleted).key;
      if (key.field === CONTRACT_STATE.keySlotKey) this.addSlot(name, key.bytes, new Uint8Array());
      return;
    }
    if (update === null) return;
    const { key, value, identical } = mapUpdateParts(name, update);
    const keyMember = (field: number) => (key.field === field ? key.bytes : undefined);
    const valueMember = (field: number) => (value.field === field ? value.bytes : undefined);
    switch (stateId) {
      case STATE_ID.accounts: {
        const bytes = valueMember(STATE.valueAccount);
        if (bytes !== undefined) this.addAccount(proto.Account.decode(bytes));
        break;
      }
      case STATE_ID.files: {
        const bytes = keyMember(STATE.keyFileId);
        if (bytes !== undefined) this.fileIds = appended(this.fileIds, proto.FileID.decode(bytes));
        break;
      }
      case STATE_ID.nodes: {
        const bytes = keyMember(STATE.keyEntityNumber);
        if (bytes !== undefined) this.nodeIds = appended(this.nodeIds, readUInt64Value(name, bytes));
        break;
      }
      case STATE_ID.tokens: {
        const token = proto.Token.decode(valueMember(STATE.valueToken) ?? new Uint8Array());
        const tokenId = token.tokenId ?? proto.TokenID.create();
        this.tokenIds = appended(this.tokenIds, tokenId as proto.TokenID);
        this.tokenSupplies ??= new Map();
        this.tokenSupplies.set(idKey(tokenId as never, "tokenNum"), toBigInt(token.totalSupply));
        break;
      }
      case STATE_ID.topics: {
        const topic = proto.Topic.decode(valueMember(STATE.valueTopic) ?? new Uint8Array());
        const topicId = topic.topicId ?? proto.TopicID.create();
        this.topicIds = appended(this.topicIds, topicId as proto.TopicID);
        if (toBigInt(topic.sequenceNumber) !== 0n) {
          this.topicMessages ??= new Map();
          this.topicMessages.set(idKey(topicId as never, "topicNum"), {
            sequenceNumber: topic.sequenceNumber,
            runningHash: topic.runningHash,
          });
        }
        break;
      }
      case STATE_ID.storage: {
        const keyBytes = keyMember(CONTRACT_STATE.keySlotKey);
        if (keyBytes === undefined || identical) break;
        const slotValue = valueMember(CONTRACT_STATE.valueSlotValue) ?? new Uint8Array();
        this.addSlot(name, keyBytes, lastBytes(name, slotValue, CONTRACT_STATE.slotValueValue));
        break;
      }
      case STATE_ID.bytecode: {
        const keyBytes = keyMember(CONTRACT_STATE.keyContractId);
        const code = valueMember(CONTRACT_STATE.valueBytecode);
        if (keyBytes === undefined || code === undefined) break;
        this.bytecodes ??= new Map();
        this.bytecodes.set(
          idKey(proto.ContractID.decode(keyBytes) as never, "contractNum"),
          lastBytes(name, code, CONTRACT_STATE.bytecodeCode),
        );
        break;
      }
      case STATE_ID.pendingAirdrops: {
        const keyBytes = keyMember(STATE.keyPendingAirdropId);
        if (keyBytes === undefined) break;
        const id = proto.PendingAirdropId.decode(keyBytes);
        if (id.fungibleTokenType == null) break;
        const pending = proto.AccountPendingAirdrop.decode(
          valueMember(STATE.valuePendingAirdrop) ?? new Uint8Array(),
        );
        this.pendingFungibleAirdrops ??= new Map();
        this.pendingFungibleAirdrops.set(
          pendingAirdropKey(id),
          toBigInt(pending.pendingAirdropValue?.amount),
        );
        break;
      }
      default:
    }
  }

  private addSlot(name: string, slotKey: Uint8Array, value: Uint8Array): void {
    const contract = proto.ContractID.decode(fieldBytes(name, slotKey, CONTRACT_STATE.slotKeyContractId));
    const key = lastBytes(name, slotKey, CONTRACT_STATE.slotKeyKey);
    const contractKey = idKey(contract as never, "contractNum");
    this.slots ??= new Map();
    this.slots.set(`${contractKey}/${slotHex(key)}`, value);
    this.writtenKeys ??= new Map();
    const keys = this.writtenKeys.get(contractKey) ?? [];
    keys.push(key);
    this.writtenKeys.set(contractKey, keys);
  }

  private addAccount(account: proto.Account): void {
    const id = account.accountId;
    if (id == null) return;
    const key = idKey(id as never, "accountNum");
    this.accounts ??= new Map();
    if (!this.accounts.has(key)) this.accounts.set(key, account);
    // Contract aliases name contracts, not accounts (the importer keeps them apart).
    if (account.alias.length === 0) return;
    const alias = Buffer.from(account.alias).toString("hex");
    if (account.smartContract) {
      this.contractIdsByAlias ??= new Map();
      this.contractIdsByAlias.set(alias, {
        shardNum: id.shardNum,
        realmNum: id.realmNum,
        contractNum: id.accountNum,
      });
    } else {
      this.accountIdsByAlias ??= new Map();
      this.accountIdsByAlias.set(alias, id as proto.AccountID);
    }
  }
}

/** `list` with `value` pushed, created on first use. */
function appended<T>(list: T[] | undefined, value: T): T[] {
  if (list === undefined) return [value];
  list.push(value);
  return list;
}

function pendingAirdropKey(id: proto.IPendingAirdropId): string {
  return Buffer.from(proto.PendingAirdropId.encode(id).finish()).toString("hex");
}

/** A oneof as read: the member's field number and bytes (field 0: none set). */
type Oneof = { field: number; bytes: Uint8Array };

const UNSET: Oneof = { field: 0, bytes: new Uint8Array() };

/** A slot key as its value with leading zeros removed, in hex (so `0x0001` and `0x01` are one slot). */
function slotHex(key: Uint8Array): string {
  let start = 0;
  while (start < key.length && key[start] === 0) start++;
  return Buffer.from(key.subarray(start)).toString("hex");
}

/** The last occurrence of a length-delimited field of a message (empty when absent). */
function lastBytes(name: string, bytes: Uint8Array, field: number): Uint8Array {
  return fieldBytes(name, bytes, field);
}

function fieldBytes(name: string, bytes: Uint8Array, field: number): Uint8Array {
  const reader = new WireReader(name, bytes, "message");
  let found: Uint8Array = new Uint8Array();
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if (tag >>> 3 === field && (tag & 7) === WIRE_LENGTH_DELIMITED)
      found = reader.lengthDelimited(bytes.length);
    else reader.skip(tag & 7, bytes.length);
  }
  return found;
}

/** A `MapUpdateChange`'s key and value oneofs, and whether it is identical to the previous mapping. */
function mapUpdateParts(name: string, bytes: Uint8Array): { key: Oneof; value: Oneof; identical: boolean } {
  const reader = new WireReader(name, bytes, "MapUpdateChange");
  let key = UNSET;
  let value = UNSET;
  let identical = false;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if (field === STATE.mapUpdateIdentical && (tag & 7) === WIRE_VARINT) {
      identical = reader.uint32(bytes.length) !== 0;
      continue;
    }
    if (
      (field === STATE.mapUpdateKey || field === STATE.mapUpdateValue) &&
      (tag & 7) === WIRE_LENGTH_DELIMITED
    ) {
      const member = oneofOf(name, reader.lengthDelimited(bytes.length));
      if (field === STATE.mapUpdateKey) key = member;
      else value = member;
    } else reader.skip(tag & 7, bytes.length);
  }
  return { key, value, identical };
}

/** The member a oneof message holds: its last length-delimited field, as protobuf keeps the last one set. */
function oneofOf(name: string, bytes: Uint8Array): Oneof {
  const reader = new WireReader(name, bytes, "MapChange");
  let member = UNSET;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if ((tag & 7) === WIRE_LENGTH_DELIMITED)
      member = { field: tag >>> 3, bytes: reader.lengthDelimited(bytes.length) };
    else reader.skip(tag & 7, bytes.length);
  }
  return member;
}

/** A `google.protobuf.UInt64Value` {1 value}. */
function readUInt64Value(name: string, bytes: Uint8Array): bigint {
  const reader = new WireReader(name, bytes, "UInt64Value");
  let value = 0n;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if (tag >>> 3 === 1 && (tag & 7) === WIRE_VARINT) value = BigInt.asUintN(64, reader.int64(bytes.length));
    else reader.skip(tag & 7, bytes.length);
  }
  return value;
}
