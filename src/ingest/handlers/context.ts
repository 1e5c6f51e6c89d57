import type { WriteStore } from "../../store/write-store.ts";
import type { HapiVersion } from "../../streams/types.ts";
import type { DecodedItem } from "../decode.ts";

/** What a transaction handler gets: the decoded item, the record file's HAPI version, and the writer. */
export type HandlerContext = {
  item: DecodedItem;
  store: WriteStore;
  hapiVersion: HapiVersion | null;
  /** The top-level transaction a child record follows (the one its parent consensus time names), if any. */
  parent?: DecodedItem | undefined;
};

export type Handler = (ctx: HandlerContext) => void;

/** True when the file's HAPI version is at least major.minor (fields such as token metadata start at 0.49). */
export function hapiAtLeast(version: HapiVersion | null, major: number, minor: number): boolean {
  if (version === null) return false;
  return version.major > major || (version.major === major && version.minor >= minor);
}
