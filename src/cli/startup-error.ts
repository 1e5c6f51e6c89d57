/** Why `serve` could not start, as the one line an operator (or a supervisor's log) sees. */
export class StartupError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "StartupError";
  }
}
