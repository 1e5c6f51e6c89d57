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
  checkedSidecarContent,
  decodeSidecarContent,
  groupSidecarRecords,
  SIDECAR_FOLDER,
  type SidecarRecords,
  sidecarFileName,
} from "../streams/sidecar-file.ts";
import type { RecordFile } from "../streams/types.ts";

export type SidecarMode = "off" | "optional" | "required";

export const SIDECAR_MODES: readonly SidecarMode[] = ["off", "optional", "required"];

const NONE: SidecarRecords = new Map();

/** A record file's sidecar files, read and checked but not decoded (see `readSidecarContents`). */
export type SidecarContents = {
  /** Each sidecar read, in the order the record file lists them: its path below the folder and its content. */
  files: Array<{ path: string; content: Uint8Array }>;
  /** What stopped reading the next one (missing when required, corrupt, mismatched), after `files`; else null. */
  error: unknown;
};

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
  return decodeSidecarContents(readSidecarContents(dir, file, mode, read));
}

/**
 * The reading half of `readRecordSidecars` (a reader thread's work): every sidecar of `file` the mode takes, read,
 * decompressed and checked against its hash, up to the first that fails. Never throws: the failure is reported
 * where the ingest thread reaches the file's sidecars, after the chain is checked, as when read in one go.
 */
export function readSidecarContents(
  dir: string,
  file: RecordFile,
  mode: SidecarMode,
  read: (path: string) => Uint8Array,
): SidecarContents {
  const listed = file.sidecars ?? [];
  const files: SidecarContents["files"] = [];
  if (mode === "off" || listed.length === 0) return { files, error: null };
  try {
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
      files.push({ path, content: checkedSidecarContent(path, read(path), metadata) });
    }
  } catch (error) {
    return { files, error };
  }
  return { files, error: null };
}

/** The decoding half of `readRecordSidecars`: throws what decoding a sidecar, or reading the next one, failed with. */
export function decodeSidecarContents(contents: SidecarContents): SidecarRecords {
  if (contents.files.length === 0 && contents.error === null) return NONE;
  const records: proto.ITransactionSidecarRecord[] = [];
  for (const { path, content } of contents.files) {
    for (const record of decodeSidecarContent(path, content)) records.push(record);
  }
  if (contents.error !== null) throw contents.error;
  return groupSidecarRecords(records);
}
