/**
 * The protobufjs types of `proto/simple-fee-schedule.proto`, loaded once. `proto.HederaFunctionality` is taken
 * from `@hiero-ledger/proto` and added to the root first, so the schedule's functionality numbers are the same
 * enum the transaction decoder uses.
 */
import { readFileSync } from "node:fs";
import protobuf from "protobufjs";
import { proto } from "../streams/proto.ts";

const PROTO_FILE = new URL("../../proto/simple-fee-schedule.proto", import.meta.url);

let feeScheduleType: protobuf.Type | undefined;

/** `org.hiero.hapi.support.fees.FeeSchedule`. */
export function feeScheduleMessage(): protobuf.Type {
  if (feeScheduleType === undefined) {
    const root = new protobuf.Root();
    const functionality: Record<string, number> = {};
    for (const [name, value] of Object.entries(proto.HederaFunctionality)) {
      if (typeof value === "number") functionality[name] = value;
    }
    root.define("proto").add(new protobuf.Enum("HederaFunctionality", functionality));
    protobuf.parse(readFileSync(PROTO_FILE, "utf8"), root);
    root.resolveAll();
    feeScheduleType = root.lookupType("org.hiero.hapi.support.fees.FeeSchedule");
  }
  return feeScheduleType;
}
