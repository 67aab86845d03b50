// The integrator of the fleet benchmark (bench/fleet.ts), in its own process so that receiving never competes with
// the benchmark's own event loop: answers 200 to every webhook at once and `{}` to profile reads, on 127.0.0.1.
// Prints `listening <url>` once it listens.
import http from "node:http";
import type { AddressInfo } from "node:net";

const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url?.includes("/users/")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
    else res.writeHead(200).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
