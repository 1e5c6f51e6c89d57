import { ChainBreakError, CorruptFileError, SignatureError } from "../errors.ts";

/** The file that stopped ingestion and why, from the error that stopped it. */
export function describeStop(error: unknown): { file: string | null; reason: string } {
  if (
    error instanceof CorruptFileError ||
    error instanceof ChainBreakError ||
    error instanceof SignatureError
  ) {
    return { file: error.file, reason: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { file: null, reason: message };
}
