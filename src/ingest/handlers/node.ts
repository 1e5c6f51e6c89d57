/**
 * Consensus nodes (HIP-869): NodeCreate opens a node, NodeUpdate opens a version with only the fields its body
 * sets, NodeDelete opens a version marked deleted. `/network/nodes` joins these with the address book.
 */
import { entityIdOf } from "../../ids.ts";
import type { NodeRow } from "../../store/network-writes.ts";
import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import { serviceEndpointValue } from "./address-book.ts";
import type { HandlerContext } from "./context.ts";
import { keyBytes } from "./keys.ts";

export function handleNodeCreate({ item, store }: HandlerContext): void {
  const receiptNodeId = item.record.receipt?.nodeId;
  if (receiptNodeId == null) return;
  const body = item.body.nodeCreate!;
  store.network.putNode(toBigInt(receiptNodeId), item.consensusNs, {
    created_ns: item.consensusNs,
    deleted: false,
    account_id: entityIdOf(body.accountId),
    admin_key: keyBytes(body.adminKey),
    description: body.description ?? "",
    decline_reward: body.declineReward ?? false,
    grpc_proxy_endpoint: grpcProxyEndpoint(body.grpcProxyEndpoint),
    gossip_endpoints: endpointList(body.gossipEndpoint),
    service_endpoints: endpointList(body.serviceEndpoint),
    associated_registered_nodes: registeredNodes(body.associatedRegisteredNode),
  });
}

export function handleNodeUpdate({ item, store }: HandlerContext): void {
  const body = item.body.nodeUpdate!;
  const nodeId = toBigInt(body.nodeId);
  const row: NodeRow = store.network.currentNode(nodeId) ?? blankNode(item.consensusNs);
  if (body.accountId) row.account_id = entityIdOf(body.accountId);
  if (body.adminKey) row.admin_key = keyBytes(body.adminKey);
  if (body.description) row.description = body.description.value ?? "";
  if (body.declineReward) row.decline_reward = body.declineReward.value ?? false;
  // A default (empty) endpoint clears the proxy endpoint.
  if (body.grpcProxyEndpoint) row.grpc_proxy_endpoint = grpcProxyEndpoint(body.grpcProxyEndpoint);
  if (body.gossipEndpoint && body.gossipEndpoint.length > 0) {
    row.gossip_endpoints = endpointList(body.gossipEndpoint);
  }
  if (body.serviceEndpoint && body.serviceEndpoint.length > 0) {
    row.service_endpoints = endpointList(body.serviceEndpoint);
  }
  if (body.associatedRegisteredNodeList) {
    row.associated_registered_nodes = registeredNodes(
      body.associatedRegisteredNodeList.associatedRegisteredNode,
    );
  }
  store.network.putNode(nodeId, item.consensusNs, row);
}

export function handleNodeDelete({ item, store }: HandlerContext): void {
  const nodeId = toBigInt(item.body.nodeDelete!.nodeId);
  const row = store.network.currentNode(nodeId) ?? blankNode(item.consensusNs);
  store.network.putNode(nodeId, item.consensusNs, { ...row, deleted: true });
}

/** A node the stream never created (it predates the first file): only what later bodies say is known. */
function blankNode(atNs: bigint): NodeRow {
  return {
    created_ns: atNs,
    deleted: false,
    account_id: null,
    admin_key: null,
    description: null,
    decline_reward: false,
    grpc_proxy_endpoint: null,
    gossip_endpoints: null,
    service_endpoints: null,
    associated_registered_nodes: null,
  };
}

function grpcProxyEndpoint(endpoint: proto.IServiceEndpoint | null | undefined): string | null {
  if (endpoint == null) return null;
  const value = serviceEndpointValue(endpoint);
  const empty = value.domain_name === "" && (endpoint.ipAddressV4?.length ?? 0) === 0 && value.port === 0;
  return empty ? null : JSON.stringify(value);
}

function endpointList(endpoints: proto.IServiceEndpoint[] | null | undefined): string | null {
  return endpoints == null ? null : JSON.stringify(endpoints.map(serviceEndpointValue));
}

function registeredNodes(ids: ReadonlyArray<Parameters<typeof toBigInt>[0]> | null | undefined): string {
  return JSON.stringify((ids ?? []).map((id) => toBigInt(id).toString()));
}
