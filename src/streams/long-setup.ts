import Long from "long";
import protobuf from "protobufjs/minimal.js";

// Installing Long here, before @hiero-ledger/proto loads, keeps int64 fields exact and stops that package
// from printing its own "patching" notice on stdout.
if (protobuf.util.Long == null) {
  protobuf.util.Long = Long;
  protobuf.configure();
}
