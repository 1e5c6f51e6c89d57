/**
 * The one place that loads the HAPI protobuf classes.
 *
 * `@hiero-ledger/proto` is a protobufjs static module. protobufjs only decodes int64 fields exactly when
 * `Long` is installed before the generated code runs; `long-setup.ts` does that, and must be imported
 * first (ES modules evaluate imports in order).
 */
import "./long-setup.ts";
import { proto } from "@hiero-ledger/proto";

export { proto };
