#!/usr/bin/env node
// `npm run build:binary`: dist/mirrorlite, one Linux executable (Node's single executable applications) holding
// the program, the ingest, block reader and read workers, better-sqlite3's native addon, the OpenAPI document,
// Swagger UI and the demo stream. It needs nothing else: no Node.js, no node_modules.
//
//   1. esbuild bundles the program and the three workers into one CommonJS script each, with
//      src/runtime/assets-sea.ts in place of src/runtime/assets.ts (assets come from the executable);
//   2. node --experimental-sea-config turns the program and the assets into a blob;
//   3. postject injects the blob into a copy of this node binary.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(import.meta.url);
const out = join(root, "dist", "sea");
const executable = join(root, "dist", "mirrorlite");

if (process.platform !== "linux") throw new Error("the single executable is built on Linux, for Linux");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
// The demo's record stream and its balance snapshots, as paths relative to the demo folder.
const demoDir = join(root, "fixtures", "streams", "demo");
const demoFiles = ["record0.0.3", "balance0.0.3"]
  .flatMap((folder) => readdirSync(join(demoDir, folder)).map((name) => `${folder}/${name}`))
  .filter((name) => statSync(join(demoDir, name)).isFile())
  .sort();
const swaggerDir = dirname(require.resolve("swagger-ui-dist/package.json"));
const addon = join(
  dirname(require.resolve("better-sqlite3/package.json")),
  "build",
  "Release",
  "better_sqlite3.node",
);

/** Bundles one entry point with the executable's asset module swapped in. */
async function bundle(entry, outfile, digest) {
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minifySyntax: true,
    legalComments: "none",
    logLevel: "warning",
    define: {
      __MIRRORLITE_VERSION__: JSON.stringify(version),
      __MIRRORLITE_DEMO_FILES__: JSON.stringify(demoFiles),
      __MIRRORLITE_ASSETS_DIGEST__: JSON.stringify(digest),
    },
    plugins: [
      {
        name: "sea-assets",
        setup(b) {
          b.onResolve({ filter: /\/runtime\/assets\.ts$/ }, () => ({
            path: join(root, "src", "runtime", "assets-sea.ts"),
          }));
        },
      },
    ],
  });
}

const assets = {
  "worker.cjs": join(out, "worker.cjs"),
  "read-worker.cjs": join(out, "read-worker.cjs"),
  "block-reader.cjs": join(out, "block-reader.cjs"),
  "better_sqlite3.node": addon,
  "openapi.yaml": join(root, "dist", "api", "openapi.yaml"),
  "openapi.json": join(root, "dist", "api", "openapi.json"),
  "swagger-ui.css": join(swaggerDir, "swagger-ui.css"),
  "swagger-ui-bundle.js": join(swaggerDir, "swagger-ui-bundle.js"),
  // Read by src/fees/schedule-proto.ts (POST /api/v1/network/fees) through the asset module.
  "simple-fee-schedule.proto": join(root, "proto", "simple-fee-schedule.proto"),
  ...Object.fromEntries(demoFiles.map((name) => [`demo/${name}`, join(demoDir, name)])),
};
// The files the executable writes to its cache folder (the addon, the demo stream) name that folder, so two
// builds share it exactly when they would write the same bytes.
const hash = createHash("sha256");
for (const [name, path] of Object.entries(assets)) {
  if (name === "better_sqlite3.node" || name.startsWith("demo/"))
    hash.update(name).update(readFileSync(path));
}
const digest = hash.digest("hex").slice(0, 16);
await bundle("src/ingest/worker.ts", join(out, "worker.cjs"), digest);
await bundle("src/api/read-worker-entry.ts", join(out, "read-worker.cjs"), digest);
await bundle("src/ingest/block-reader-entry.ts", join(out, "block-reader.cjs"), digest);
await bundle("src/runtime/sea-main.ts", join(out, "main.cjs"), digest);

const seaConfig = join(out, "sea-config.json");
writeFileSync(
  seaConfig,
  JSON.stringify(
    {
      main: join(out, "main.cjs"),
      output: join(out, "sea-prep.blob"),
      disableExperimentalSEAWarning: true,
      assets,
    },
    null,
    2,
  ),
);
execFileSync(process.execPath, ["--experimental-sea-config", seaConfig], { stdio: "pipe" });
copyFileSync(process.execPath, executable);
chmodSync(executable, 0o755);
execFileSync(
  process.execPath,
  [
    require.resolve("postject/dist/cli.js"),
    executable,
    "NODE_SEA_BLOB",
    join(out, "sea-prep.blob"),
    "--sentinel-fuse",
    "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
  ],
  // postject's warnings about ELF note sections are harmless; its output is shown only if it fails.
  { stdio: "pipe" },
);
const mb = (statSync(executable).size / 1024 / 1024).toFixed(1);
process.stdout.write(`dist/mirrorlite: ${mb} MB (node ${process.versions.node}, mirrorlite ${version})\n`);
