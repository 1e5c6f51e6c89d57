import genesisJson from "./genesis-simple-fee-schedule.json" with { type: "json" };
import type { FeeSchedule } from "./schedule.ts";
import { encodeFeeScheduleJson, parseFeeSchedule } from "./schedule-codec.ts";

let genesis: FeeSchedule | undefined;

/**
 * The consensus node's genesis simple-fee schedule (`genesis/simpleFeesSchedules.json` of CN 0.73), in force
 * while the stream has not written 0.0.113. Built through the same encode/parse/validate path as an uploaded file.
 */
export function genesisFeeSchedule(): FeeSchedule {
  genesis ??= parseFeeSchedule(encodeFeeScheduleJson(genesisJson));
  return genesis;
}
