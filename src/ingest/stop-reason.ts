import { BalanceFileReadError, ChainBreakError, CorruptFileError, SignatureError } from "../errors.ts";

/** The file that stopped ingestion and why, from the error that stopped it. */
export function describeStop(error: unknown): { file: string | null; reason: string } {
  if (
    error instanceof CorruptFileError ||
    error instanceof ChainBreakError ||
    error instanceof SignatureError ||
    error instanceof BalanceFileReadError
  ) {
    return { file: error.file, reason: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  // SQLite's own words (`database or disk is full`), with its code, say what an operator has to fix.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("SQLITE_")) {
    return { file: null, reason: `the index cannot be written: ${message} (${code})` };
  }
  return { file: null, reason: message };
}
