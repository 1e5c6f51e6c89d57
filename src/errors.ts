/**
 * Errors shared across layers. Fatal errors stop ingestion (a corrupt file, a broken hash chain); retryable
 * ones (a locked database, a passing I/O fault) may be tried again. Only `api` turns errors into HTTP.
 */
export class MirrorliteError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options?: { cause?: unknown; retryable?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retryable = options?.retryable ?? false;
  }
}

/** A complete stream file that cannot be read: bad gzip, wrong version, undecodable or inconsistent content. */
export class CorruptFileError extends MirrorliteError {
  readonly file: string;
  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super(`${file}: ${message}`, options);
    this.file = file;
  }
}

/** A file that does not continue the stream: its previous hash or block number is not what the last file promised. */
export class ChainBreakError extends MirrorliteError {
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.file = file;
  }
}

/** A file whose signature does not verify against the configured address book. */
export class SignatureError extends MirrorliteError {
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.file = file;
  }
}

/** An account balance file (or folder) that cannot be read; start-up stops on it. The message names it. */
export class BalanceFileReadError extends MirrorliteError {
  readonly file: string;
  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.file = file;
  }
}
