/** The field numbers the block reader uses are those of the pinned `.proto` files in proto/block-stream. */
import { readFileSync } from "node:fs";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { FOOTER, HEADER, ITEM, OUTPUT, RESULT } from "../../src/streams/block-items.ts";
import { REPO_ROOT } from "../helpers/service.ts";

function fieldsOf(file: string, message: string): Record<string, number> {
  const parsed = protobuf.parse(readFileSync(`${REPO_ROOT}proto/block-stream/${file}`, "utf8"), {
    keepCase: false,
  });
  const type = parsed.root.lookupType(message);
  return Object.fromEntries(Object.values(type.fields).map((f) => [f.name, f.id]));
}

describe("block stream field numbers", () => {
  it("match proto/block-stream", () => {
    expect(fieldsOf("block.proto", "com.hedera.hapi.block.stream.BlockItem")).toEqual(ITEM);
    expect(fieldsOf("block_header.proto", "com.hedera.hapi.block.stream.output.BlockHeader")).toEqual(HEADER);
    expect(fieldsOf("block_footer.proto", "com.hedera.hapi.block.stream.output.BlockFooter")).toEqual(FOOTER);
    expect(
      fieldsOf("transaction_result.proto", "com.hedera.hapi.block.stream.output.TransactionResult"),
    ).toEqual(RESULT);
    expect(
      fieldsOf("transaction_output.proto", "com.hedera.hapi.block.stream.output.TransactionOutput"),
    ).toEqual(OUTPUT);
  });
});
