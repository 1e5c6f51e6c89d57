import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Vitest global setup: the CLI tests run `bin/mirrorlite.js`, which runs the compiled program in dist/, and test
 * services start their worker threads from dist/ too (see compiled-workers.ts), so the suite compiles it first
 * unless dist/ is newer than every source file (a test must never run stale code).
 */
export default function buildDist(): void {
  if (distIsFresh()) return;
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs")], { stdio: "inherit" });
}

/** Whether dist/ was compiled after the last change to any source file (or the build's own settings). */
export function distIsFresh(): boolean {
  const stamp = join(root, "dist", "api", "openapi.json");
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const sources = [
    join(root, "package.json"),
    join(root, "tsconfig.json"),
    join(root, "tsconfig.build.json"),
    join(root, "scripts", "build.mjs"),
    ...listFiles(join(root, "src")),
  ];
  return sources.every((file) => statSync(file).mtimeMs < built);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
