import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Vitest global setup: the CLI tests run `bin/mirrorlite.js`, which runs the compiled program in dist/, so the
 * suite compiles it first unless dist/ is newer than every source file (a test must never run stale code).
 */
export default function buildDist(): void {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const stamp = join(root, "dist", "api", "openapi.json");
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const sources = [
    join(root, "package.json"),
    join(root, "tsconfig.json"),
    join(root, "tsconfig.build.json"),
    join(root, "scripts", "build.mjs"),
    ...listFiles(join(root, "src")),
  ];
  if (sources.every((file) => statSync(file).mtimeMs < built)) return;
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs")], { stdio: "inherit" });
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
