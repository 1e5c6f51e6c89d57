import { type DestinationStream, destination, type Logger, pino } from "pino";

export type { Logger };

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** `json`: one JSON object a line (for collectors); `pretty`: one readable line, for a person at a terminal. */
export type LogFormat = "json" | "pretty";

export type LoggerOptions = {
  name?: string;
  format?: LogFormat;
  /**
   * Write each line to file descriptor 1 before returning. The ingest worker needs it: it applies a whole
   * catch-up in one synchronous loop, and an asynchronous write (pino's default, or a worker's
   * `process.stdout`, which goes through the main thread) sends one line and then holds every later one until
   * the loop ends, so per-file lines of a long catch-up would appear only at its end (or never, on a crash).
   */
  sync?: boolean;
};

/** JSON logs on stdout (pino), or readable lines when asked; one child logger per component. */
export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const base = { name: options.name ?? "mirrorlite", level, base: { pid: process.pid } };
  // pino's synchronous destination retries a full non-blocking pipe (EAGAIN) instead of dropping the line.
  const direct = options.sync === true ? destination({ dest: 1, sync: true }) : null;
  if (options.format !== "pretty") return direct === null ? pino(base) : pino(base, direct);
  return pino(
    base,
    prettyDestination((text) => (direct === null ? process.stdout.write(text) : direct.write(text))),
  );
}

const LEVELS: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO ",
  40: "WARN ",
  50: "ERROR",
  60: "FATAL",
};
/** Fields every line has, shown in the line's head or not at all. */
const HEAD_FIELDS = new Set(["level", "time", "pid", "hostname", "name", "msg", "component"]);

/** A pino destination that rewrites each JSON line as `12:00:00.123 INFO  [ingest] message key=value …`. */
export function prettyDestination(write: (text: string) => void): DestinationStream {
  return {
    write(line: string) {
      write(formatLine(line));
    },
  };
}

export function formatLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === "number" ? new Date(entry.time).toISOString().slice(11, 23) : "";
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const component = typeof entry.component === "string" ? ` [${entry.component}]` : "";
  const fields = Object.entries(entry)
    .filter(([key]) => !HEAD_FIELDS.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const err = entry.err as { stack?: string } | undefined;
  const rest = fields.filter((field) => !field.startsWith("err="));
  const tail = rest.length > 0 ? ` ${rest.join(" ")}` : "";
  const stack = err?.stack ? `\n${err.stack}` : "";
  return `${time} ${level}${component} ${String(entry.msg ?? "")}${tail}${stack}\n`;
}
