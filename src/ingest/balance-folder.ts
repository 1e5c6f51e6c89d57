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

/** One balance file of the folder: where it is and the consensus instant its name gives. */
export type BalanceFileInfo = { name: string; path: string; consensusNs: bigint };

/**
 * Lists the account balance files of a node's balance folder by the instant in their names, oldest first,
 * without reading any: a node writes one every 15 minutes and never prunes, so start-up must not cost more as
 * the folder grows. A file is read when it is needed (the starting snapshot, a comparison). Throws
 * BalanceFileReadError for a folder that cannot be listed, a name without an instant, or two names of one
 * instant (which one is the state would be a guess).
 */
export function listBalanceFolder(dir: string): BalanceFileInfo[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter(isBalanceFileName).sort();
  } catch (error) {
    throw new BalanceFileReadError(dir, `balance folder ${dir} cannot be read: ${(error as Error).message}`);
  }
  const seen = new Map<bigint, string>();
  const files: BalanceFileInfo[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const consensusNs = instantOfName(name);
    if (consensusNs === null) {
      throw new BalanceFileReadError(
        path,
        `balance file ${path}: the name carries no instant (a node names them like ` +
          "2021-03-08T20_15_00.000000000Z_Balances.pb.gz)",
      );
    }
    const other = seen.get(consensusNs);
    if (other !== undefined) {
      throw new BalanceFileReadError(path, `balance file ${path} has the same timestamp as ${other}`);
    }
    seen.set(consensusNs, name);
    files.push({ name, path, consensusNs });
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
