/** Locates the real record stream files in fixtures/real (copied from real networks) for the record-* tests. */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const REAL_STREAMS = fileURLToPath(new URL("../../fixtures/real/", import.meta.url));

export type RealFile = { dir: string; name: string; path: string; bytes: Buffer };

/** The record files (`.rcd`, `.rcd.gz`) in one folder, in stream order (names sort by consensus time). */
export function realRecordFiles(dir: string): RealFile[] {
  const folder = `${REAL_STREAMS}${dir}`;
  return readdirSync(folder)
    .filter((name) => /\.rcd(\.gz)?$/.test(name))
    .sort()
    .map((name) => ({ dir, name, path: `${folder}/${name}`, bytes: readFileSync(`${folder}/${name}`) }));
}

/** The node folders (`record0.0.N`) of one stream version folder. */
export function nodeFolders(versionDir: string): string[] {
  return readdirSync(`${REAL_STREAMS}${versionDir}`)
    .filter((name) => name.startsWith("record0.0."))
    .sort()
    .map((name) => `${versionDir}/${name}`);
}

/** The signature file written beside a record file. */
export function signatureOf(file: RealFile): Buffer {
  return readFileSync(file.path.replace(/\.rcd(\.gz)?$/, ".rcd_sig"));
}
