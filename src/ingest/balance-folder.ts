import { readdirSync } from "node:fs";
import { join } from "node:path";
import { BalanceFileReadError } from "../errors.ts";
import {
  BalanceFileError,
  type BalanceSnapshot,
  isBalanceFileName,
  parseBalanceFile,
  parseIsoInstant,
} from "../streams/balance-file.ts";
import {
  FileTooLargeError,
  MAX_DECOMPRESSED_BYTES,
  readFileBounded,
  TOO_LARGE_HINT,
} from "../streams/decompress.ts";

/** One balance file of the folder: where it is and the consensus instant it describes. */
export type BalanceFileInfo = { name: string; path: string; consensusNs: bigint };

/**
 * Reads every account balance file of a node's balance folder, checking each completely, and lists them by
 * consensus time. Throws BalanceFileReadError naming the first file that does not read and why (start-up stops
 * there: a snapshot that cannot be trusted must not silently become the starting state).
 */
export function scanBalanceFolder(dir: string, maxBytes = MAX_DECOMPRESSED_BYTES): BalanceFileInfo[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter(isBalanceFileName).sort();
  } catch (error) {
    throw new BalanceFileReadError(dir, `balance folder ${dir} cannot be read: ${(error as Error).message}`);
  }
  const files = names.map((name) => {
    const path = join(dir, name);
    return { name, path, consensusNs: readBalanceSnapshot(path, name, maxBytes).consensusNs };
  });
  const seen = new Map<bigint, string>();
  for (const file of files) {
    const other = seen.get(file.consensusNs);
    if (other !== undefined) {
      throw new BalanceFileReadError(
        file.path,
        `balance file ${file.path} has the same timestamp as ${other}`,
      );
    }
    seen.set(file.consensusNs, file.name);
  }
  return files.sort((a, b) => (a.consensusNs < b.consensusNs ? -1 : a.consensusNs > b.consensusNs ? 1 : 0));
}

/** Reads one balance file (at most `maxBytes`, on disk and decompressed); throws BalanceFileReadError naming it. */
export function readBalanceSnapshot(
  path: string,
  name: string,
  maxBytes = MAX_DECOMPRESSED_BYTES,
): BalanceSnapshot {
  let bytes: Uint8Array;
  try {
    bytes = readFileBounded(path, maxBytes);
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      throw new BalanceFileReadError(path, `balance file ${path} ${error.message}${TOO_LARGE_HINT}`);
    }
    throw new BalanceFileReadError(path, `balance file ${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    return parseBalanceFile(name, bytes, maxBytes);
  } catch (error) {
    throw new BalanceFileReadError(path, `balance file ${path} ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The instant a balance file's name carries (`2021-03-08T20_15_00Z_Balances.pb.gz`), or null. */
export function instantOfName(name: string): bigint | null {
  const stem = name.slice(0, name.indexOf("_Balances."));
  const iso = /^(\d{4}-\d{2}-\d{2}T\d{2})_(\d{2})_(\d{2}(?:\.\d{1,9})?Z)$/.exec(stem);
  if (iso === null) return null;
  try {
    return parseIsoInstant(`${iso[1]}:${iso[2]}:${iso[3]}`, 0);
  } catch (error) {
    if (error instanceof BalanceFileError) return null;
    throw error;
  }
}
