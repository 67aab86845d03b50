// `vigia webhooks listen`: a small integrator for trying monitoring on one machine (docs/quickstart.md). It
// receives the service's webhooks at POST /webhook, checks each signature with the project's webhook secret,
// prints one JSON line per call, and answers 200 when the signature is valid (401 otherwise, so that the service
// retries and the mistake shows). It also answers the user-profile reads the service makes (GET /users/{id}) with a
// profile: the demo ones below, or a JSON file's.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Command } from "commander";
import { type SigningScheme, verifySignature } from "./signing.ts";

/**
 * The demo's clients (docs/api.md, "User profiles"), complete enough for every file the quickstart's tour can call
 * for: `ana`, the tour's customer, lives in Bogotá (a Colombian client: the UIAF's files); every other user is a
 * client in Mexico City with all the AVI needs (a monthly aviso or a 24-hour one).
 */
export const DEMO_PROFILES: { ana: object; other: object } = {
  ana: {
    givenName: "Ana",
    paternalSurname: "López",
    maternalSurname: "Ruiz",
    birthdate: "1990-01-02",
    nationality: "CO",
    email: "ana@example.com",
    phoneNumber: { countryCode: "57", phoneNumber: 3001234567 },
    address: {
      country: "CO",
      region: "Bogotá D.C.",
      city: "Bogotá",
      street: "Calle 93",
      exteriorNumber: "11-26",
    },
    colombia: {
      tipoIdentificacion: "13",
      numeroIdentificacion: "1020304050",
      numeroCliente: "ANA-1",
      ciudadResidencia: "11001",
      fechaVinculacion: "2024-05-02",
      numeroWallet: "W-ANA-1",
    },
  },
  other: {
    givenName: "Beto",
    paternalSurname: "Ramírez",
    maternalSurname: "Soto",
    birthdate: "1988-07-15",
    nationality: "MX",
    email: "beto@example.mx",
    phoneNumber: { countryCode: "52", phoneNumber: 5512345678 },
    address: {
      country: "MX",
      colonia: "Roma Norte",
      street: "Av. Álvaro Obregón",
      exteriorNumber: "120",
      postalCode: "06700",
    },
    mexico: {
      rfc: "RASB880715AB1",
      curp: "RASB880715HDFMTT05",
      actividadEconomica: 8250100,
      documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1234567" },
    },
  },
};

/** The demo's profile of a user. */
const demoProfile = (user: string) => (user === "ana" ? DEMO_PROFILES.ana : DEMO_PROFILES.other);

export interface ReceiverOptions {
  port: number;
  host: string;
  secret: string;
  scheme: SigningScheme;
  /** the profile answered for every user; undefined: the demo's (DEMO_PROFILES) */
  profile: unknown;
  print: (line: object) => void;
  now?: () => number;
}

const MAX_BODY = 1024 * 1024;

export async function startReceiver(
  options: ReceiverOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const now = options.now ?? Date.now;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      try {
        handle();
      } catch (error) {
        // Whatever a request holds, the receiver answers it and keeps running.
        options.print({ received: "unreadable request", error: (error as Error).message });
        if (!res.headersSent) res.writeHead(400).end();
      }
    });
    const handle = () => {
      const path = (req.url ?? "/").split("?")[0] as string;
      const user = /^\/users\/([^/]+)$/.exec(path)?.[1];
      if (req.method === "GET" && user) {
        // A malformed escape (`/users/%E0%A4%A`) is the caller's error: 400, and the receiver keeps running.
        let id: string;
        try {
          id = decodeURIComponent(user);
        } catch {
          options.print({ received: "malformed path", path });
          res
            .writeHead(400, { "content-type": "application/json" })
            .end(JSON.stringify({ error: "the user id in the path is not valid percent-encoded UTF-8" }));
          return;
        }
        options.print({ received: "profile request", user: id });
        const profile = options.profile ?? demoProfile(id);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
        return;
      }
      if (req.method !== "POST" || path !== "/webhook") {
        res.writeHead(404).end();
        return;
      }
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]),
      );
      const verified = verifySignature(options.scheme, options.secret, {
        method: "POST",
        path,
        headers,
        rawBody,
        now: now(),
      });
      let body: { type?: string; data?: Record<string, unknown> } = {};
      try {
        body = JSON.parse(rawBody);
      } catch {}
      const data = body.data ?? {};
      options.print({
        received: "webhook",
        id: headers["webhook-id"] ?? null,
        verified,
        type: body.type ?? null,
        txHash: data.txHash ?? null,
        laws: Array.isArray(data.inflictedLaws)
          ? (data.inflictedLaws as { id?: string }[]).map((l) => l.id)
          : undefined,
        body,
      });
      res.writeHead(verified ? 200 : 401).end();
    };
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    url: `http://${options.host}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function registerWebhooksCommand(program: Command): void {
  const webhooks = program.command("webhooks").description("try the integrator's side of webhooks");
  webhooks
    .command("listen")
    .description(
      "receive the service's webhooks here, check their signatures, print them (an integrator to try)",
    )
    .requiredOption(
      "--secret <secret>",
      "the project's webhook secret (GET /v1/projects/{id}: webhook_secret)",
    )
    .option("--port <port>", "the port to listen on", "9000")
    .option("--host <host>", "the address to listen on", "127.0.0.1")
    .option(
      "--scheme <scheme>",
      "the project's signing scheme: standard-webhooks or hmac-canonical",
      "standard-webhooks",
    )
    .option(
      "--profile <file>",
      "a JSON file with the user profile to answer for every user (default: the demo's: ana in Bogotá, others in Mexico City)",
    )
    .action(
      async (opts: { secret: string; port: string; host: string; scheme: string; profile?: string }) => {
        if (opts.scheme !== "standard-webhooks" && opts.scheme !== "hmac-canonical")
          throw new Error(`--scheme must be standard-webhooks or hmac-canonical, got "${opts.scheme}"`);
        const port = Number(opts.port);
        if (!Number.isInteger(port) || port < 0 || port > 65_535)
          throw new Error(`--port must be a port number, got "${opts.port}"`);
        const profile = opts.profile ? JSON.parse(fs.readFileSync(opts.profile, "utf8")) : undefined;
        const receiver = await startReceiver({
          port,
          host: opts.host,
          secret: opts.secret,
          scheme: opts.scheme,
          profile,
          print: (line) => process.stdout.write(`${JSON.stringify(line)}\n`),
        });
        process.stdout.write(
          `${JSON.stringify({ listening: receiver.url, integration_url: receiver.url, webhook: `${receiver.url}/webhook` })}\n`,
        );
        await new Promise<void>((resolve) => {
          process.once("SIGINT", resolve);
          process.once("SIGTERM", resolve);
        });
        await receiver.close();
      },
    );
}
