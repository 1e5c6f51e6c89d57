import { genesisFeeSchedule } from "../fees/genesis-schedule.ts";
import type { FeeSchedule } from "../fees/schedule.ts";
import type { ReadStore } from "../store/read-store.ts";

/** The simple-fee schedule in force now: 0.0.113 as indexed, or the bundled genesis schedule. */
export type FeeScheduleSource = () => FeeSchedule;

export function createFeeScheduleSource(_store: ReadStore): FeeScheduleSource {
  return genesisFeeSchedule;
}
