// The people of a project as other rooms read them: listUsers and findUser, scoped to the project.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUser, listUsers } from "../../src/users/index.ts";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

describe("listUsers and findUser", () => {
  it("list the project's people and find one only within its project", async () => {
    const { id } = await svc.keys.db
      .insertInto("users")
      .values({
        project_id: svc.project.id,
        email: "Ana@Example.mx",
        display_name: "Ana Pérez",
        role: "officer",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(await listUsers(svc.keys.db, svc.project.id)).toEqual([
      { id, email: "Ana@Example.mx", displayName: "Ana Pérez", role: "officer", disabledAt: null },
    ]);
    expect(await listUsers(svc.keys.db, svc.other.id)).toEqual([]);
    const found = await findUser(svc.keys.db, svc.project.id, id);
    expect(found).toMatchObject({ id, lang: "es", timeZone: "America/Mexico_City", totpEnabled: false });
    expect(await findUser(svc.keys.db, svc.other.id, id)).toBeUndefined();
    // One account per e-mail across the service, whatever its case.
    await expect(
      svc.keys.db
        .insertInto("users")
        .values({ project_id: svc.other.id, email: "ana@example.MX", display_name: "Otra", role: "viewer" })
        .execute(),
    ).rejects.toThrow();
  });
});
