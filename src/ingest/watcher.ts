import { watch } from "chokidar";
import type { Logger } from "../log.ts";

export type DirectoryWatcher = { close(): Promise<void> };

/**
 * Calls `onChange` whenever something in `dir` (not below it: sidecar files are not read) appears or changes.
 * chokidar stays behind this function so the rest of ingestion is plain, testable code.
 */
export function watchDirectory(dir: string, onChange: () => void, log: Logger): DirectoryWatcher {
  const watcher = watch(dir, {
    depth: 0,
    ignoreInitial: true,
    ignored: (path) => path.includes("/sidecar/"),
  });
  watcher.on("add", onChange);
  watcher.on("change", onChange);
  watcher.on("error", (error) => log.warn({ err: error, dir }, "watching the record directory failed"));
  return { close: () => watcher.close() };
}
