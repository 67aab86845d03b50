// A project's March 2026 Mexican report (an informe en ceros: nothing reportable) and its signed download URL,
// made through the API, for the tests that check signed URLs survive a secret rotation or a move of the store.
import { expect } from "vitest";
import type { HttpApp } from "../../../src/platform/http/app.ts";
import { auth } from "../../support/service.ts";

export const MX_ENTITY = { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" };

/** Enables Mexico on the project (with `extra` settings), generates March 2026, and signs its file's URL. */
export async function marchReport(
  app: HttpApp,
  projectId: number,
  key: string,
  extra: Record<string, unknown> = {},
): Promise<{ reportPath: string; signedUrl: string }> {
  const patched = await app.inject({
    method: "PATCH",
    url: `/v1/projects/${projectId}`,
    headers: auth(key),
    payload: { jurisdictions: ["MX"], mx_reporting_entity: MX_ENTITY, ...extra },
  });
  expect(patched.statusCode).toBe(200);
  const generated = await app.inject({
    method: "POST",
    url: "/v1/reports/generate",
    headers: auth(key),
    payload: { projectId, countryCode: "MX", period: "2026-03" },
  });
  expect(generated.statusCode).toBeLessThan(300);
  const listed = await app.inject({
    url: `/v1/reports?projectId=${projectId}&countryCode=MX&period=2026-03`,
    headers: auth(key),
  });
  const reportPath = listed.json().data[0].path as string;
  const download = await app.inject({
    url: `/v1/reports/download?path=${encodeURIComponent(reportPath)}`,
    headers: auth(key),
  });
  return { reportPath, signedUrl: download.json().data.signedUrl as string };
}
