import { main } from "../cli/main.ts";

/**
 * Entry point of the single executable (scripts/build-binary.mjs bundles from here). Node places the executable
 * path in argv[0] and argv[1] alike, so the arguments start at 2 as they do for `node bin/mirrorlite.js`.
 */
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `mirrorlite: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
