import genesisJson from "./genesis-simple-fee-schedule.json" with { type: "json" };
import type { FeeSchedule } from "./schedule.ts";
import { encodeFeeScheduleJson, parseFeeSchedule } from "./schedule-codec.ts";

let genesis: { bytes: Uint8Array; schedule: FeeSchedule } | undefined;

/**
 * The consensus node's genesis simple-fee schedule (`genesis/simpleFeesSchedules.json` of CN 0.73), in force
 * while the stream has not written 0.0.113. Built through the same encode/parse/validate path as an uploaded file.
 */
export function genesisFeeSchedule(): FeeSchedule {
  return loadGenesis().schedule;
}

/** The genesis schedule as the binary file content 0.0.113 would hold. */
export function genesisFeeScheduleBytes(): Uint8Array {
  return loadGenesis().bytes;
}

function loadGenesis() {
  if (genesis === undefined) {
    const bytes = encodeFeeScheduleJson(genesisJson);
    genesis = { bytes, schedule: parseFeeSchedule(bytes) };
  }
  return genesis;
}
