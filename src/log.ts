import { type Logger, pino } from "pino";

export type { Logger };

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** JSON logs on stdout (pino), one child logger per component. */
export function createLogger(level: LogLevel, name = "mirrorlite"): Logger {
  return pino({ name, level, base: { pid: process.pid } });
}
