import { genesisFeeSchedule } from "../fees/genesis-schedule.ts";
import type { FeeSchedule } from "../fees/schedule.ts";
import { InvalidFeeScheduleError, parseFeeSchedule } from "../fees/schedule-codec.ts";
import { encodeEntityId } from "../ids.ts";
import { NOW } from "../store/history.ts";
import type { ReadStore } from "../store/read-store.ts";

/** System file 0.0.113: the simple-fee schedule (`files.simpleFeesSchedules`). */
export const SIMPLE_FEE_SCHEDULE_FILE = encodeEntityId(0n, 0n, 113n);

/** The simple-fee schedule in force now. */
export type FeeScheduleSource = () => FeeSchedule;

/**
 * 0.0.113 as indexed, rebuilt like the other system files (newest create or non-empty update plus the appends
 * after it). A version that does not parse or validate is passed over for the one before it, as the node keeps
 * its previous schedule after an invalid upload; with none, the bundled genesis schedule applies. Unlike the
 * mirror node's 10-minute refresh, a new schedule applies as soon as its record file is: the file is looked up
 * again whenever `generation` (the last applied block) changes, and parsed only when its contents changed.
 */
export function createFeeScheduleSource(
  store: ReadStore,
  generation: () => bigint | null,
): FeeScheduleSource {
  let seenGeneration: bigint | null | undefined;
  let current: { consensusNs: bigint | null; schedule: FeeSchedule } | undefined;
  const parse = (bytes: Uint8Array): FeeSchedule | undefined => {
    try {
      return parseFeeSchedule(bytes);
    } catch (error) {
      if (error instanceof InvalidFeeScheduleError) return undefined;
      throw error;
    }
  };
  return () => {
    const now = generation();
    if (current !== undefined && now === seenGeneration) return current.schedule;
    const file = store.systemFiles.fileAsOf(SIMPLE_FEE_SCHEDULE_FILE, { lowerNs: 0n, upperNs: NOW });
    // Unchanged file (new blocks of other transactions): keep the parsed schedule.
    if (current === undefined || file?.consensusNs !== current.consensusNs) {
      const found =
        file === undefined
          ? undefined
          : store.systemFiles.parseSystemFileAsOf(
              SIMPLE_FEE_SCHEDULE_FILE,
              { lowerNs: 0n, upperNs: NOW },
              parse,
            );
      current = {
        consensusNs: file?.consensusNs ?? null,
        schedule: found?.value ?? genesisFeeSchedule(),
      };
    }
    seenGeneration = now;
    return current.schedule;
  };
}
