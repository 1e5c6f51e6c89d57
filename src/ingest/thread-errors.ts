/**
 * Errors that stop ingestion, carried from a helper thread to the ingest thread. Structured cloning keeps only
 * an error's message and stack, not its class or its `file`, and the class decides how a stop is reported
 * (stop-reason.ts): so the class and its parts travel explicitly and the same error is made again.
 */
import { ChainBreakError, CorruptFileError } from "../errors.ts";

export type ThreadError =
  | { kind: "corrupt"; file: string; detail: string; stack?: string }
  | { kind: "chain"; file: string; detail: string; stack?: string }
  | { kind: "other"; message: string; code?: string; stack?: string };

/** `error` in a form that survives `postMessage`. */
export function toThreadError(error: unknown): ThreadError {
  if (error instanceof CorruptFileError || error instanceof ChainBreakError) {
    const kind = error instanceof CorruptFileError ? "corrupt" : "chain";
    // Both classes prefix their message with the file; the detail is what follows.
    const prefix = `${error.file}: `;
    const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return { kind, file: error.file, detail, ...stackOf(error) };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      kind: "other",
      message: error.message,
      ...(typeof code === "string" ? { code } : {}),
      ...stackOf(error),
    };
  }
  return { kind: "other", message: String(error) };
}

/** The error `toThreadError` described, of the same class and with the same message. */
export function fromThreadError(described: ThreadError): Error {
  let error: Error;
  if (described.kind === "corrupt") error = new CorruptFileError(described.file, described.detail);
  else if (described.kind === "chain") error = new ChainBreakError(described.file, described.detail);
  else {
    error = new Error(described.message);
    if (described.code !== undefined) (error as { code?: string }).code = described.code;
  }
  if (described.stack !== undefined) error.stack = described.stack;
  return error;
}

function stackOf(error: Error): { stack?: string } {
  return error.stack === undefined ? {} : { stack: error.stack };
}
