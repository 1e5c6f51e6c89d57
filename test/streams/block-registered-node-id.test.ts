/**
 * A RegisteredNodeCreate's id in a block: the map update of state 56 (`REGISTERED_NODES`), keyed by
 * `entity_number_key` as real blocks write it, or by `node_id_key` (the reading of upstream's 0.154 snapshot).
 */
import { describe, expect, it } from "vitest";
import { STATE, STATE_ID } from "../../src/streams/block-items.ts";
import { StateChangeContext } from "../../src/streams/block-state-changes.ts";
import { WireWriter } from "../../src/streams/protobuf-wire.ts";

/** `StateChanges` holding one map update of `stateId` whose key is `keyField` = `{1: id}`. */
function stateChanges(stateId: number, keyField: number, id: bigint): Uint8Array {
  const key = new WireWriter().bytesField(keyField, new WireWriter().varintField(1, id).finish()).finish();
  const update = new WireWriter().bytesField(STATE.mapUpdateKey, key).finish();
  const change = new WireWriter()
    .varintField(STATE.changeStateId, stateId)
    .bytesField(STATE.changeMapUpdate, update)
    .finish();
  return new WireWriter().bytesField(STATE.changesList, change).finish();
}

describe("the new registered node of a block's state changes", () => {
  it("is read from entity_number_key or node_id_key of state 56, nowhere else", () => {
    const byNumber = new StateChangeContext("b", [
      stateChanges(STATE_ID.registeredNodes, STATE.keyEntityNumber, 7n),
    ]);
    expect(byNumber.newRegisteredNodeId()).toBe(7n);
    expect(byNumber.newRegisteredNodeId()).toBeUndefined();
    const byNodeId = new StateChangeContext("b", [
      stateChanges(STATE_ID.registeredNodes, STATE.keyNodeId, 12n),
    ]);
    expect(byNodeId.newRegisteredNodeId()).toBe(12n);
    const consensusNode = new StateChangeContext("b", [
      stateChanges(STATE_ID.nodes, STATE.keyEntityNumber, 4n),
    ]);
    expect(consensusNode.newRegisteredNodeId()).toBeUndefined();
    expect(consensusNode.newNodeId()).toBe(4n);
  });
});
