// Worker threads start without the TypeScript loader: install it, then load the real reader module.
import { register } from "tsx/esm/api";

register();
await import("./block-reader-entry.ts");
