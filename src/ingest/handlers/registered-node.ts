/**
 * Registered nodes (HIP-1137): RegisteredNodeCreate opens a node (its id from the receipt, or from the block's
 * state changes), RegisteredNodeUpdate opens a version with what its body sets, RegisteredNodeDelete one marked
 * deleted, as upstream's `AbstractRegisteredNodeTransactionHandler`. Endpoints are stored as the answer shows
 * them (`/api/v1/network/registered-nodes`), with a bit mask of their kinds for the `type` filter.
 */
import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import type { HandlerContext } from "./context.ts";
import { keyBytes } from "./keys.ts";

type Endpoint = NonNullable<
  NonNullable<proto.ITransactionBody["registeredNodeCreate"]>["serviceEndpoint"]
>[number];

/** An endpoint as `/network/registered-nodes` shows it (keys in the OpenAPI order). */
export type RegisteredEndpointView = {
  block_node: { endpoint_apis: string[] } | null;
  domain_name: string | null;
  general_service: { description: string } | null;
  ip_address: string | null;
  mirror_node: Record<string, never> | null;
  port: number;
  requires_tls: boolean;
  rpc_relay: Record<string, never> | null;
  type: string;
};

/** Endpoint kinds as upstream numbers them (the `type` filter); 0: an endpoint of no kind. */
export const REGISTERED_NODE_KINDS = ["UNKNOWN", "BLOCK_NODE", "GENERAL_SERVICE", "MIRROR_NODE", "RPC_RELAY"];

const BLOCK_NODE_APIS = ["OTHER", "STATUS", "PUBLISH", "SUBSCRIBE_STREAM", "STATE_PROOF"];

export function handleRegisteredNodeCreate({ item, store }: HandlerContext): void {
  // Unset (not 0) when neither the receipt nor the block's state changes named the new node: skipped.
  const receipt = item.record.receipt;
  if (receipt == null || !Object.hasOwn(receipt, "registeredNodeId")) return;
  const id = receipt.registeredNodeId;
  const body = item.body.registeredNodeCreate!;
  const endpoints = parseEndpoints(body.serviceEndpoint ?? []);
  store.hooks.registeredNodes.create([toBigInt(id)], item.consensusNs, {
    admin_key: body.adminKey == null ? null : keyBytes(body.adminKey),
    created_ns: item.consensusNs,
    deleted: false,
    description: body.description ?? "",
    service_endpoints: JSON.stringify(endpoints.views),
    type_mask: endpoints.mask,
  });
}

export function handleRegisteredNodeUpdate({ item, store }: HandlerContext): void {
  const body = item.body.registeredNodeUpdate!;
  const key = [toBigInt(body.registeredNodeId)];
  const row: Record<string, unknown> = {
    ...(store.hooks.registeredNodes.current(key) ?? blankNode()),
    deleted: false,
  };
  if (body.adminKey != null) row.admin_key = keyBytes(body.adminKey);
  if (body.description != null) row.description = body.description.value ?? "";
  if ((body.serviceEndpoint?.length ?? 0) > 0) {
    const endpoints = parseEndpoints(body.serviceEndpoint!);
    row.service_endpoints = JSON.stringify(endpoints.views);
    row.type_mask = endpoints.mask;
  }
  store.hooks.registeredNodes.create(key, item.consensusNs, row);
}

export function handleRegisteredNodeDelete({ item, store }: HandlerContext): void {
  const key = [toBigInt(item.body.registeredNodeDelete!.registeredNodeId)];
  const row = store.hooks.registeredNodes.current(key) ?? blankNode();
  store.hooks.registeredNodes.create(key, item.consensusNs, { ...row, deleted: true });
}

/** A node the index never saw created: only what later bodies say is known (upstream writes the same). */
function blankNode(): Record<string, unknown> {
  return {
    admin_key: null,
    created_ns: null,
    deleted: false,
    description: null,
    service_endpoints: "[]",
    type_mask: 0n,
  };
}

function parseEndpoints(endpoints: readonly Endpoint[]): { views: RegisteredEndpointView[]; mask: bigint } {
  let mask = 0n;
  const views = endpoints.map((endpoint) => {
    const { view, kind } = endpointView(endpoint);
    mask |= 1n << BigInt(kind);
    return view;
  });
  return { views, mask };
}

function endpointView(e: Endpoint): { view: RegisteredEndpointView; kind: number } {
  const blockNode =
    e.blockNode == null
      ? null
      : { endpoint_apis: (e.blockNode.endpointApi ?? []).map((n) => BLOCK_NODE_APIS[n] ?? "UNRECOGNIZED") };
  const generalService =
    e.generalService == null ? null : { description: e.generalService.description ?? "" };
  const kind =
    blockNode !== null
      ? 1
      : e.mirrorNode != null
        ? 3
        : e.rpcRelay != null
          ? 4
          : generalService !== null
            ? 2
            : 0;
  const view: RegisteredEndpointView = {
    block_node: blockNode,
    domain_name: e.ipAddress != null ? null : (e.domainName ?? null),
    general_service: generalService,
    ip_address: e.ipAddress != null ? ipText(e.ipAddress) : null,
    mirror_node: e.mirrorNode != null ? {} : null,
    port: e.port ?? 0,
    requires_tls: e.requiresTls ?? false,
    rpc_relay: e.rpcRelay != null ? {} : null,
    // An endpoint of no kind shows as a general service (upstream's mapper default).
    type: kind === 0 ? "GENERAL_SERVICE" : REGISTERED_NODE_KINDS[kind]!,
  };
  return { view, kind };
}

/**
 * An address as Java's `InetAddress.getHostAddress` writes it: dotted IPv4; IPv6 as eight groups of lower-case
 * hex without leading zeros and no `::` compression, an IPv4-mapped one as dotted IPv4. Other lengths: null.
 */
export function ipText(bytes: Uint8Array): string | null {
  if (bytes.length === 4) return Array.from(bytes).join(".");
  if (bytes.length !== 16) return null;
  const mapped = bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return Array.from(bytes.subarray(12)).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(":");
}
