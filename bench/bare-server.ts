// The baseline of the HTTP benchmarks: a bare fastify server with one GET route that answers, verbatim, the
// JSON body given in BENCH_BODY (fetched by the runner from the real service), at BENCH_PATH (a fastify route
// path, e.g. /v1/chains/:chainId). No hooks, no validation, no logging, no database. Prints `{"url"}` as one
// JSON line on stdout; SIGTERM closes it.
import Fastify from "fastify";

const body = process.env.BENCH_BODY;
const routePath = process.env.BENCH_PATH;
if (!body || !routePath) throw new Error("bare server: BENCH_BODY and BENCH_PATH are required");

const app = Fastify({ logger: false });
app.get(routePath, (_request, reply) => {
  reply.header("content-type", "application/json; charset=utf-8").send(body);
});
const url = await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(`${JSON.stringify({ url })}\n`);

const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
