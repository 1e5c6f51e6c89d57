/**
 * What a transaction's state changes say that its record would have: the ids of entities it created, token
 * supplies, topic sequence numbers and running hashes, accounts by alias, pending airdrop amounts. Built as the
 * mirror node importer's `StateChangeContext` is, from the `StateChanges` that share the transaction's consensus
 * time (a child transaction reads its parent's), and only when a transformer asks.
 */
import type Long from "long";
import { STATE, STATE_ID } from "./block-items.ts";
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

export class StateChangeContext {
  private readonly accounts = new Map<string, proto.Account>();
  private readonly accountIdsByAlias = new Map<string, proto.AccountID>();
  private readonly fileIds: proto.FileID[] = [];
  private readonly nodeIds: bigint[] = [];
  private readonly tokenIds: proto.TokenID[] = [];
  private readonly tokenSupplies = new Map<string, bigint>();
  private readonly topicIds: proto.TopicID[] = [];
  private readonly topicMessages = new Map<string, TopicMessageState>();
  private readonly pendingFungibleAirdrops = new Map<string, bigint>();

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
    this.fileIds.sort(byNum("fileNum") as never);
    this.nodeIds.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.tokenIds.sort(byNum("tokenNum") as never);
    this.topicIds.sort(byNum("topicNum") as never);
  }

  account(id: proto.IAccountID): proto.Account | undefined {
    return this.accounts.get(idKey(id as never, "accountNum"));
  }

  accountIdByAlias(alias: Uint8Array): proto.AccountID | undefined {
    return this.accountIdsByAlias.get(Buffer.from(alias).toString("hex"));
  }

  /** The highest file id not claimed yet (creations are transformed newest first). */
  newFileId(): proto.FileID | undefined {
    return this.fileIds.pop();
  }

  newNodeId(): bigint | undefined {
    return this.nodeIds.pop();
  }

  newTokenId(): proto.TokenID | undefined {
    return this.tokenIds.pop();
  }

  newTopicId(): proto.TopicID | undefined {
    return this.topicIds.pop();
  }

  /** Claims the topic's sequence number and running hash after a message. */
  topicMessage(topicId: proto.ITopicID): TopicMessageState | undefined {
    const key = idKey(topicId as never, "topicNum");
    const message = this.topicMessages.get(key);
    this.topicMessages.delete(key);
    return message;
  }

  /**
   * The token's supply as the state changes leave it, then moved by `change` for the transaction before (a
   * mint passes minus its amount, a burn or wipe plus it).
   */
  trackTokenSupply(tokenId: proto.ITokenID, change: bigint): bigint | undefined {
    const key = idKey(tokenId as never, "tokenNum");
    const supply = this.tokenSupplies.get(key);
    if (supply === undefined) return undefined;
    this.tokenSupplies.set(key, supply + change);
    return supply;
  }

  /** A fungible pending airdrop's amount in state, less what this airdrop added to it for the ones before. */
  trackPendingFungibleAirdrop(id: proto.IPendingAirdropId, change: bigint): bigint | undefined {
    const key = pendingAirdropKey(id);
    const amount = this.pendingFungibleAirdrops.get(key);
    if (amount === undefined) return undefined;
    this.pendingFungibleAirdrops.delete(key);
    if (change < amount) this.pendingFungibleAirdrops.set(key, amount - change);
    return amount;
  }

  private addChange(name: string, bytes: Uint8Array): void {
    const reader = new WireReader(name, bytes, "StateChange");
    let stateId = 0;
    let update: Uint8Array | null = null;
    while (reader.pos < bytes.length) {
      const tag = reader.tag(bytes.length);
      if (tag >>> 3 === STATE.changeStateId && (tag & 7) === WIRE_VARINT)
        stateId = reader.uint32(bytes.length);
      else if (tag >>> 3 === STATE.changeMapUpdate && (tag & 7) === WIRE_LENGTH_DELIMITED) {
        update = reader.lengthDelimited(bytes.length);
      } else reader.skip(tag & 7, bytes.length);
    }
    if (update === null) return;
    const { key, value } = mapUpdateParts(name, update);
    switch (stateId) {
      case STATE_ID.accounts: {
        const bytes = value.get(STATE.valueAccount);
        if (bytes !== undefined) this.addAccount(proto.Account.decode(bytes));
        break;
      }
      case STATE_ID.files: {
        const bytes = key.get(STATE.keyFileId);
        if (bytes !== undefined) this.fileIds.push(proto.FileID.decode(bytes));
        break;
      }
      case STATE_ID.nodes: {
        const bytes = key.get(STATE.keyEntityNumber);
        if (bytes !== undefined) this.nodeIds.push(readUInt64Value(name, bytes));
        break;
      }
      case STATE_ID.tokens: {
        const token = proto.Token.decode(value.get(STATE.valueToken) ?? new Uint8Array());
        const tokenId = token.tokenId ?? proto.TokenID.create();
        this.tokenIds.push(tokenId as proto.TokenID);
        this.tokenSupplies.set(idKey(tokenId as never, "tokenNum"), toBigInt(token.totalSupply));
        break;
      }
      case STATE_ID.topics: {
        const topic = proto.Topic.decode(value.get(STATE.valueTopic) ?? new Uint8Array());
        const topicId = topic.topicId ?? proto.TopicID.create();
        this.topicIds.push(topicId as proto.TopicID);
        if (toBigInt(topic.sequenceNumber) !== 0n) {
          this.topicMessages.set(idKey(topicId as never, "topicNum"), {
            sequenceNumber: topic.sequenceNumber,
            runningHash: topic.runningHash,
          });
        }
        break;
      }
      case STATE_ID.pendingAirdrops: {
        const keyBytes = key.get(STATE.keyPendingAirdropId);
        if (keyBytes === undefined) break;
        const id = proto.PendingAirdropId.decode(keyBytes);
        if (id.fungibleTokenType == null) break;
        const pending = proto.AccountPendingAirdrop.decode(
          value.get(STATE.valuePendingAirdrop) ?? new Uint8Array(),
        );
        this.pendingFungibleAirdrops.set(
          pendingAirdropKey(id),
          toBigInt(pending.pendingAirdropValue?.amount),
        );
        break;
      }
      default:
    }
  }

  private addAccount(account: proto.Account): void {
    const id = account.accountId;
    if (id == null) return;
    const key = idKey(id as never, "accountNum");
    if (!this.accounts.has(key)) this.accounts.set(key, account);
    // Contract aliases name contracts, not accounts (the importer keeps them apart).
    if (account.alias.length > 0 && !account.smartContract) {
      this.accountIdsByAlias.set(Buffer.from(account.alias).toString("hex"), id as proto.AccountID);
    }
  }
}

function pendingAirdropKey(id: proto.IPendingAirdropId): string {
  return Buffer.from(proto.PendingAirdropId.encode(id).finish()).toString("hex");
}

/** A `MapUpdateChange`'s key and value oneofs, each as field number → bytes. */
function mapUpdateParts(
  name: string,
  bytes: Uint8Array,
): { key: Map<number, Uint8Array>; value: Map<number, Uint8Array> } {
  const reader = new WireReader(name, bytes, "MapUpdateChange");
  let key = new Map<number, Uint8Array>();
  let value = new Map<number, Uint8Array>();
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if (
      (field === STATE.mapUpdateKey || field === STATE.mapUpdateValue) &&
      (tag & 7) === WIRE_LENGTH_DELIMITED
    ) {
      const fields = oneofFields(name, reader.lengthDelimited(bytes.length));
      if (field === STATE.mapUpdateKey) key = fields;
      else value = fields;
    } else reader.skip(tag & 7, bytes.length);
  }
  return { key, value };
}

function oneofFields(name: string, bytes: Uint8Array): Map<number, Uint8Array> {
  const reader = new WireReader(name, bytes, "MapChange");
  const fields = new Map<number, Uint8Array>();
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if ((tag & 7) === WIRE_LENGTH_DELIMITED) fields.set(tag >>> 3, reader.lengthDelimited(bytes.length));
    else reader.skip(tag & 7, bytes.length);
  }
  return fields;
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
