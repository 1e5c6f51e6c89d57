/**
 * The single executable's cache folder holds native code it loads: only a folder this user alone can write is
 * used, and the addon's bytes are checked right before loading. Real folders, real permissions.
 */
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensurePrivateFolder, UnsafeCacheError, verifyFileBytes } from "../../src/runtime/private-folder.ts";
import { tempDir } from "../helpers/service.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function scratch(): string {
  const temp = tempDir();
  cleanups.push(temp.remove);
  return temp.dir;
}

describe("the cache folder", () => {
  it("is created for this user alone, and an existing private one is used", () => {
    const dir = join(scratch(), "cache", "mirrorlite");
    ensurePrivateFolder(dir);
    const created = statSync(dir);
    expect(created.isDirectory()).toBe(true);
    // Only this user may read, write or enter it.
    expect(created.mode & 0o777).toBe(0o700);
    expect(created.uid).toBe(process.getuid?.());
    // A private folder already there is used as it is (nothing thrown, nothing changed).
    writeFileSync(join(dir, "kept"), "x");
    expect(() => ensurePrivateFolder(dir)).not.toThrow();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual(["kept"]);
  });

  it("is refused when group or others may write it", () => {
    for (const mode of [0o777, 0o770, 0o702]) {
      const dir = join(scratch(), "shared");
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(() => ensurePrivateFolder(dir)).toThrow(UnsafeCacheError);
      expect(() => ensurePrivateFolder(dir)).toThrow(`cache folder ${dir} is writable by other users`);
    }
  });

  it("is refused when it is a symbolic link, or not a folder", () => {
    const base = scratch();
    const target = join(base, "elsewhere");
    mkdirSync(target, { mode: 0o700 });
    const link = join(base, "link");
    symlinkSync(target, link);
    expect(() => ensurePrivateFolder(link)).toThrow(`cache folder ${link} is a symbolic link`);
    const file = join(base, "file");
    writeFileSync(file, "");
    expect(() => ensurePrivateFolder(file)).toThrow(UnsafeCacheError);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "is refused when another user owns it (planted before the first start)",
    () => {
      const dir = join(scratch(), "planted");
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, 4242, 4242);
      expect(() => ensurePrivateFolder(dir)).toThrow(
        `cache folder ${dir} belongs to user 4242, not to this user (0)`,
      );
    },
  );
});

describe("the addon's bytes", () => {
  it("are loaded only when they are the executable's own", () => {
    const path = join(scratch(), "better_sqlite3.node");
    const own = Buffer.from("the addon the executable carries");
    writeFileSync(path, own);
    verifyFileBytes(path, own);
    writeFileSync(path, Buffer.from("the addon the executable carriez"));
    expect(() => verifyFileBytes(path, own)).toThrow(`${path} is not the file mirrorlite wrote there`);
  });
});
