#!/usr/bin/env node
// mirrorlite ships as TypeScript; tsx compiles it on load (and caches the result).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
