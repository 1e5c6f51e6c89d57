import { genesisFeeSchedule } from "../fees/genesis-schedule.ts";
import type { FeeSchedule } from "../fees/schedule.ts";
import { InvalidFeeScheduleError, parseFeeSchedule } from "../fees/schedule-codec.ts";
import { encodeEntityId } from "../ids.ts";
import { NOW } from "../store/history.ts";
import type { ReadStore } from "../store/read-store.ts";

/** System file 0.0.113: the simple-fee schedule (`files.simpleFeesSchedules`). */
export const SIMPLE_FEE_SCHEDULE_FILE = encodeEntityId(0n, 0n, 113n);

/** The simple-fee schedule in force now, as the given store has it indexed. */
export type FeeScheduleSource = (store: ReadStore) => FeeSchedule;

/**
 * 0.0.113 as indexed, rebuilt like the other system files (newest create or non-empty update plus the appends
 * after it). A version that does not parse or validate is passed over for the one before it, as the node keeps
 * its previous schedule after an invalid upload; with none, the bundled genesis schedule applies. Unlike the
 * mirror node's 10-minute refresh, a new schedule applies as soon as its record file is. The parsed schedule is
 * kept by the time of the file's newest stored part (one index seek per call): rows are only ever appended,
 * so the same time means the same schedule, whichever thread or connection asks.
 */
export function createFeeScheduleSource(): FeeScheduleSource {
  let current: { changedNs: bigint | null; schedule: FeeSchedule } | undefined;
  const parse = (bytes: Uint8Array): FeeSchedule | undefined => {
    try {
      return parseFeeSchedule(bytes);
    } catch (error) {
      if (error instanceof InvalidFeeScheduleError) return undefined;
      throw error;
    }
  };
  return (store) => {
    const changedNs = store.systemFiles.latestChangeNs(SIMPLE_FEE_SCHEDULE_FILE);
    if (current !== undefined && current.changedNs === changedNs) return current.schedule;
    const found =
      changedNs === null
        ? undefined
        : store.systemFiles.parseSystemFileAsOf(
            SIMPLE_FEE_SCHEDULE_FILE,
            { lowerNs: 0n, upperNs: NOW },
            parse,
          );
    current = { changedNs, schedule: found?.value ?? genesisFeeSchedule() };
    return current.schedule;
  };
}
