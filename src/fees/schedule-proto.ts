/**
 * The protobufjs types of `proto/simple-fee-schedule.proto`, loaded once. `proto.HederaFunctionality` is taken
 * from `@hiero-ledger/proto` and added to the root first, so the schedule's functionality numbers are the same
 * enum the transaction decoder uses.
 */
import protobuf from "protobufjs";
import { feeScheduleProtoText } from "../runtime/assets.ts";
import { proto } from "../streams/proto.ts";

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
    // From the checkout (or dist/), or from the single executable's assets.
    protobuf.parse(feeScheduleProtoText(), root);
    root.resolveAll();
    feeScheduleType = root.lookupType("org.hiero.hapi.support.fees.FeeSchedule");
  }
  return feeScheduleType;
}
