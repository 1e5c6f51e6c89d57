// The yardstick: a bare node:http server answering one fixed JSON body. Run as a child process:
//   node bench/lib/bare-server.mjs <bodyBytes>   → prints "listening <port>" on stdout.
import { createServer } from "node:http";

const size = Number(process.argv[2] ?? 1000);
const body = Buffer.from(`{"pad":"${"x".repeat(Math.max(0, size - 10))}"}`);
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
