/**
 * Address books (0.0.101, 0.0.102) as upstream's importer builds them (`AddressBookServiceImpl`): every
 * create, non-empty update or append whose (combined) bytes parse as a `NodeAddressBook` starts a new address
 * book at consensus time + 1 ns and ends the file's previous one at the consensus time.
 */
import { decodeEntityId, encodeEntityId, entityIdOf } from "../../ids.ts";
import type { AddressBookEntryRow, ServiceEndpointValue } from "../../store/network-writes.ts";
import { FILE_APPEND } from "../../store/network-writes.ts";
import type { WriteStore } from "../../store/write-store.ts";
import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import { parseNodeAddressBook } from "../../streams/system-file-contents.ts";

/** Node account ids below this with node id 0 come from early address books that left every node id at 0. */
const EARLY_ACCOUNT_LIMIT = 20n;
const FIRST_NODE_ACCOUNT = 3n;
const DOTTED_ID = /^(\d{1,4})\.(\d{1,5})\.(\d{1,12})$/;

export const ADDRESS_BOOK_101 = 101n;
export const ADDRESS_BOOK_102 = 102n;

/** Applies one stored file transaction of an address-book file (`contents` as the body carried them). */
export function applyAddressBookFile(
  store: WriteStore,
  fileId: bigint,
  consensusNs: bigint,
  type: number,
  contents: Uint8Array,
): void {
  // Upstream skips empty contents entirely (an empty update is stored but starts nothing).
  if (contents.length === 0) return;
  let bytes = contents;
  if (type === FILE_APPEND) {
    const parts = store.network.appendBaseContents(fileId, consensusNs);
    if (parts === undefined) return;
    bytes = Buffer.concat([...parts, contents]);
  }
  const book = parseNodeAddressBook(bytes);
  if (book === undefined) return;
  let entries: AddressBookEntryRow[] | undefined;
  try {
    entries = addressBookEntries(book, fileId);
  } catch {
    // An account id outside the 10/16/38-bit limits: as good as bytes that do not parse.
    return;
  }
  if (entries === undefined) return;
  store.network.insertAddressBook(
    fileId,
    consensusNs + 1n,
    consensusNs,
    book.nodeAddress?.length ?? 0,
    entries,
  );
}

/**
 * The entries of a parsed book, one per node id (later addresses of a node only add endpoints); undefined when
 * a node names no account of the file's shard and realm, which upstream treats as a book that does not parse.
 */
export function addressBookEntries(
  book: proto.INodeAddressBook,
  fileId: bigint,
): AddressBookEntryRow[] | undefined {
  const { shard, realm } = decodeEntityId(fileId);
  const entries = new Map<
    bigint,
    { row: AddressBookEntryRow; endpoints: Map<string, ServiceEndpointValue> }
  >();
  for (const address of book.nodeAddress ?? []) {
    const memo = Buffer.from(address.memo ?? new Uint8Array()).toString("utf8");
    const accountId = address.nodeAccountId ? entityIdOf(address.nodeAccountId) : accountFromMemo(memo);
    if (accountId === null || accountId === 0n) return undefined;
    const account = decodeEntityId(accountId);
    if (account.shard !== shard || account.realm !== realm) return undefined;
    let nodeId = toBigInt(address.nodeId);
    if (nodeId === 0n && account.num < EARLY_ACCOUNT_LIMIT && account.num !== FIRST_NODE_ACCOUNT) {
      nodeId = account.num - FIRST_NODE_ACCOUNT;
    }
    let entry = entries.get(nodeId);
    if (entry === undefined) {
      const certHash = address.nodeCertHash ?? new Uint8Array();
      entry = {
        row: {
          nodeId,
          accountId,
          description: address.description ?? "",
          memo: memo.length > 0 ? memo : null,
          publicKey: address.RSA_PubKey ?? "",
          nodeCertHash: certHash.length > 0 ? certHash : null,
          stake: toBigInt(address.stake),
          serviceEndpoints: [],
        },
        endpoints: new Map(),
      };
      entries.set(nodeId, entry);
    }
    for (const endpoint of endpointsOf(address)) {
      entry.endpoints.set(`${endpoint.domain_name}|${endpoint.ip_address_v4}|${endpoint.port}`, endpoint);
    }
  }
  return [...entries.values()].map(({ row, endpoints }) => ({
    ...row,
    serviceEndpoints: [...endpoints.values()],
  }));
}

/** The deprecated IP/port (when the IP text is not blank) and every `ServiceEndpoint`. */
function endpointsOf(address: proto.INodeAddress): ServiceEndpointValue[] {
  const endpoints: ServiceEndpointValue[] = [];
  const deprecatedIp = Buffer.from(address.ipAddress ?? new Uint8Array()).toString("utf8");
  if (deprecatedIp.trim() !== "") {
    endpoints.push({ domain_name: "", ip_address_v4: deprecatedIp, port: address.portno ?? 0 });
  }
  for (const endpoint of address.serviceEndpoint ?? []) endpoints.push(serviceEndpointValue(endpoint));
  return endpoints;
}

/** A HAPI `ServiceEndpoint` as upstream stores it: dotted IPv4 from exactly 4 bytes, else `""`. */
export function serviceEndpointValue(endpoint: proto.IServiceEndpoint): ServiceEndpointValue {
  const ip = endpoint.ipAddressV4 ?? new Uint8Array();
  return {
    domain_name: endpoint.domainName ?? "",
    ip_address_v4: ip.length === 4 ? Array.from(ip).join(".") : "",
    port: endpoint.port ?? 0,
  };
}

function accountFromMemo(memo: string): bigint | null {
  const match = DOTTED_ID.exec(memo);
  if (match === null) return null;
  try {
    return encodeEntityId(BigInt(match[1] ?? ""), BigInt(match[2] ?? ""), BigInt(match[3] ?? ""));
  } catch {
    return null;
  }
}
