// The fleet test's load (test/operations/fleet.test.ts), run as its own process on 127.0.0.1: a bounded number of
// rounds, each sending to every API process a scan, a risk job, an incremental investigation and a quick check.
// It prints one JSON line per request ({event: "request", api, kind, status, id?, error?}) and {event: "done"}.
// Its environment: FLEET_APIS (comma-separated base URLs), FLEET_KEY, FLEET_PROJECT, FLEET_ADDRESSES (JSON array),
// FLEET_ROUNDS, FLEET_PAUSE_MS.
const apis = (process.env.FLEET_APIS ?? "").split(",").filter(Boolean);
const key = process.env.FLEET_KEY ?? "";
const project = process.env.FLEET_PROJECT ?? "";
const addresses = JSON.parse(process.env.FLEET_ADDRESSES ?? "[]") as string[];
const rounds = Number(process.env.FLEET_ROUNDS ?? 30);
const pauseMs = Number(process.env.FLEET_PAUSE_MS ?? 300);
const headers = { "x-api-key": `ApiKey ${key}`, "content-type": "application/json" };

const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function send(api: string, kind: string, method: string, path: string, body?: unknown) {
  try {
    const res = await fetch(`${api}/v1${path}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(60_000),
    });
    const json = (await res.json().catch(() => ({}))) as { data?: Record<string, unknown>; jobId?: string };
    const data = json.data ?? (json as Record<string, unknown>);
    const id = (data.jobId ?? data.analysis_id ?? undefined) as string | undefined;
    print({ event: "request", api, kind, status: res.status, ...(id ? { id } : {}) });
  } catch (error) {
    print({ event: "request", api, kind, status: 0, error: (error as Error).message });
  }
}

for (let round = 0; round < rounds; round++) {
  const address = addresses[round % addresses.length] as string;
  const other = addresses[(round + 1) % addresses.length] as string;
  await Promise.all(
    apis.map(async (api) => {
      await send(api, "scan", "POST", `/projects/${project}/addresses/scan-risk`, {
        addresses: [
          { address, chainId: "31337" },
          { address: other, chainId: "31337" },
        ],
        maxDepth: 2,
        skipExisting: false,
      });
      await send(api, "risk-job", "POST", "/risk", { address, chainId: 31337 });
      await send(api, "investigation", "POST", `/projects/${project}/investigations`, {
        name: `fleet ${round}`,
        wallet: other,
        chainId: 31337,
        incremental: true,
        maxDepth: 3,
      });
      await send(api, "quick", "GET", `/risk/quick?address=${address}&chainId=31337`);
    }),
  );
  print({ event: "round", round });
  await new Promise((r) => setTimeout(r, pauseMs));
}
print({ event: "done" });
