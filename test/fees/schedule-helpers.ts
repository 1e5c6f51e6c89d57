import genesisJson from "../../src/fees/genesis-simple-fee-schedule.json" with { type: "json" };
import type { FeeSchedule } from "../../src/fees/schedule.ts";
import { encodeFeeScheduleJson, parseFeeSchedule } from "../../src/fees/schedule-codec.ts";

export type ScheduleJson = typeof genesisJson;
export type DefinitionJson = ScheduleJson["services"][number]["schedule"][number];

/** A deep copy of the genesis schedule in its JSON form, for a test to edit. */
export function genesisJsonCopy(): ScheduleJson {
  return structuredClone(genesisJson);
}

/** The definition of `functionality` inside a schedule's JSON form. */
export function definitionIn(json: ScheduleJson, functionality: string): DefinitionJson {
  for (const service of json.services) {
    const found = service.schedule.find((d) => d.name === functionality);
    if (found) return found;
  }
  throw new Error(`no ${functionality} in schedule`);
}

/** The genesis schedule after `edit`, encoded as 0.0.113 would hold it. */
export function editedScheduleBytes(edit: (json: ScheduleJson) => void): Uint8Array {
  const json = genesisJsonCopy();
  edit(json);
  return encodeFeeScheduleJson(json);
}

export function editedSchedule(edit: (json: ScheduleJson) => void): FeeSchedule {
  return parseFeeSchedule(editedScheduleBytes(edit));
}
