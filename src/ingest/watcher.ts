import { type FSWatcher, watch } from "node:fs";
import type { Logger } from "../log.ts";

export type DirectoryWatcher = { close(): Promise<void> };

/** How long after a watch fails (the folder went away, say) it is set up again. */
const REWATCH_MS = 5000;

/**
 * Calls `onChange` with the file's name whenever something in `dir` (not below it: sidecar files are not read)
 * appears or changes. One watch on the folder itself (inotify on Linux), whose events name the file: its cost does
 * not grow with the files the folder holds. (chokidar, used before, listed and stat'ed the whole folder on every
 * change and watched every file on its own: with a node's folder of a million names, neither is affordable.)
 * Events can be missed (some network mounts have none): the ingestor also lists the folder now and then.
 */
export function watchDirectory(dir: string, onChange: (name: string) => void, log: Logger): DirectoryWatcher {
  let watcher: FSWatcher | null = null;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  let warned = false;
  const start = (): void => {
    if (closed) return;
    try {
      watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name !== null) onChange(name.toString());
      });
      warned = false;
      watcher.on("error", (error) => failed(error));
    } catch (error) {
      failed(error);
    }
  };
  const failed = (error: unknown): void => {
    // One line per outage, not one per attempt.
    if (!warned) log.warn({ err: error, dir }, "watching the stream folder failed; looking at it by polling");
    warned = true;
    watcher?.close();
    watcher = null;
    if (closed) return;
    retry = setTimeout(start, REWATCH_MS);
    retry.unref();
  };
  start();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      watcher?.close();
    },
  };
}
