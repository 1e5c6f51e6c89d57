#!/usr/bin/env node
// The compiled program (`npm run build` writes dist/; `npm ci` runs it through `prepare`).
import { main } from "../dist/cli/main.js";

// Exit explicitly: once main has returned, nothing left (a closing file watcher, a timer) may keep it alive.
process.exit(await main(process.argv.slice(2)));
