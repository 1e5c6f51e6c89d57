// Worker threads start without the TypeScript loader: install it, then load the real worker module.
import { register } from "tsx/esm/api";

register();
await import("./read-worker-entry.ts");
