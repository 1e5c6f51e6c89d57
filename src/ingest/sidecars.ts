/**
 * Which sidecar files of a record file are read, and what happens when one is missing (`--sidecars`): the record
 * file lists its sidecars with their hashes; each is read from `sidecar/` beside it and checked. A corrupt or
 * mismatched sidecar is a corrupt stream (ingestion stops naming it), like a corrupt record file; a missing one
 * stops ingestion only when sidecars are required.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CorruptFileError } from "../errors.ts";
import type { proto } from "../streams/proto.ts";
import {
  groupSidecarRecords,
  readSidecarFile,
  SIDECAR_FOLDER,
  type SidecarRecords,
  sidecarFileName,
} from "../streams/sidecar-file.ts";
import type { RecordFile } from "../streams/types.ts";

export type SidecarMode = "off" | "optional" | "required";

export const SIDECAR_MODES: readonly SidecarMode[] = ["off", "optional", "required"];

const NONE: SidecarRecords = new Map();

/**
 * The sidecar records of `file` (in folder `dir`), by consensus time. `read` reads a path below `dir` within the
 * file-size bound.
 */
export function readRecordSidecars(
  dir: string,
  file: RecordFile,
  mode: SidecarMode,
  read: (path: string) => Uint8Array,
): SidecarRecords {
  const listed = file.sidecars ?? [];
  if (mode === "off" || listed.length === 0) return NONE;
  const records: proto.ITransactionSidecarRecord[] = [];
  for (const metadata of listed) {
    const path = join(SIDECAR_FOLDER, sidecarFileName(file.name, metadata.id));
    if (!existsSync(join(dir, path))) {
      if (mode === "required") {
        throw new CorruptFileError(
          path,
          `missing sidecar ${metadata.id} of ${file.name} (--sidecars required; optional skips missing ones)`,
        );
      }
      continue;
    }
    for (const record of readSidecarFile(path, read(path), metadata)) records.push(record);
  }
  return groupSidecarRecords(records);
}
