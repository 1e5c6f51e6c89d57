#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ and puts the OpenAPI document beside the code in both forms, so the
// program never needs a YAML parser at run time.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(import.meta.url);

// A clean dist/: a module deleted from src/ must not live on in the compiled program. The single executable
// and its intermediate files (npm run build:binary) are left alone.
if (existsSync(`${root}dist`)) {
  for (const name of readdirSync(`${root}dist`)) {
    if (name !== "mirrorlite" && name !== "sea")
      rmSync(`${root}dist/${name}`, { recursive: true, force: true });
  }
}
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", `${root}tsconfig.build.json`], {
  stdio: "inherit",
});
mkdirSync(`${root}dist/api`, { recursive: true });
copyFileSync(`${root}src/api/openapi.yaml`, `${root}dist/api/openapi.yaml`);
const document = parse(readFileSync(`${root}src/api/openapi.yaml`, "utf8"));
writeFileSync(`${root}dist/api/openapi.json`, JSON.stringify(document));
