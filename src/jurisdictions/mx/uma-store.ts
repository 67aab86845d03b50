// Importing a year's UMA (`vigia import uma`) and reading the years imported. A year's figures are checked against
// the law that defines them before they are kept (Ley para Determinar el Valor de la UMA, Art. 4: the monthly value is
// the daily times 30.4, the annual the monthly times 12; Art. 5: published in the DOF in January, in force from 1
// February): a figure mistyped from the DOF is refused, naming what it should be. A year Vigía ships with cannot be
// changed; an imported year imported again with other figures is corrected, and the answer says from what.
import { type Kysely, sql } from "kysely";
import type { DB } from "../../schema.ts";
import { UMA_VALUES, type UmaYear } from "./uma.ts";

export interface UmaImport {
  year: number;
  daily: number;
  monthly: number;
  annual: number;
  /** YYYY-MM-DD: the DOF's publication */
  dofDate: string;
  /** where it was read, beyond the DOF (default "INEGI") */
  source?: string;
}

export type UmaImportResult =
  | { outcome: "added" | "unchanged"; year: number }
  | { outcome: "corrected"; year: number; before: { daily: number; monthly: number; annual: number } };

const cents = (n: number) => Math.round(n * 100);

/** Why the figures cannot be the year's UMA, or undefined. */
export function umaProblem(u: UmaImport): string | undefined {
  if (!Number.isInteger(u.year) || u.year < 2017 || u.year > 2100)
    return `the year ${u.year} is not one of the UMA's`;
  for (const [name, value] of Object.entries({ daily: u.daily, monthly: u.monthly, annual: u.annual }))
    if (!Number.isFinite(value) || value <= 0 || Math.abs(cents(value) - value * 100) > 1e-6)
      return `--${name} must be an amount in MXN with at most two decimals`;
  const monthly = cents(u.daily * 30.4) / 100;
  if (Math.abs(cents(u.monthly) - cents(monthly)) > 1)
    return `the monthly UMA is the daily times 30.4 (Ley para Determinar el Valor de la UMA, Art. 4): ${u.daily} × 30.4 = ${monthly.toFixed(2)}, not ${u.monthly}`;
  const annual = cents(u.monthly * 12) / 100;
  if (Math.abs(cents(u.annual) - cents(annual)) > 1)
    return `the annual UMA is the monthly times 12 (Art. 4): ${u.monthly} × 12 = ${annual.toFixed(2)}, not ${u.annual}`;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(u.dofDate) || Number.isNaN(Date.parse(`${u.dofDate}T00:00:00Z`)))
    return `--dof must be the DOF's day of publication, YYYY-MM-DD`;
  if (u.dofDate < `${u.year - 1}-12-01` || u.dofDate > `${u.year}-02-01`)
    return `INEGI publishes the ${u.year} UMA in the DOF in January ${u.year}, in force from 1 February (Art. 5): ${u.dofDate} is not that publication`;
  const shipped = UMA_VALUES.find((s) => s.year === u.year);
  if (shipped && cents(shipped.daily) !== cents(u.daily))
    return `Vigía ships the ${u.year} UMA as MXN ${shipped.daily} (${shipped.source}): an import cannot change it`;
  return undefined;
}

/** Keeps the year's UMA; what it did. Throws with the reason when the figures cannot be the year's. */
export async function importUma(db: Kysely<DB>, u: UmaImport, now: Date): Promise<UmaImportResult> {
  const problem = umaProblem(u);
  if (problem) throw new Error(problem);
  const source = `${u.source ?? "INEGI"}, DOF ${u.dofDate.slice(8, 10)}-${u.dofDate.slice(5, 7)}-${u.dofDate.slice(0, 4)}`;
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("uma_values")
      .select([
        "daily",
        "monthly",
        "annual",
        "source",
        sql<string>`to_char(dof_date, 'YYYY-MM-DD')`.as("dof_date"),
      ])
      .where("year", "=", u.year)
      .forUpdate()
      .executeTakeFirst();
    const same =
      before &&
      cents(Number(before.daily)) === cents(u.daily) &&
      cents(Number(before.monthly)) === cents(u.monthly) &&
      cents(Number(before.annual)) === cents(u.annual) &&
      before.dof_date === u.dofDate &&
      before.source === source;
    if (same) return { outcome: "unchanged", year: u.year };
    const values = {
      daily: u.daily.toFixed(2),
      monthly: u.monthly.toFixed(2),
      annual: u.annual.toFixed(2),
      dof_date: u.dofDate,
      source,
      imported_at: now,
    };
    await trx
      .insertInto("uma_values")
      .values({ year: u.year, ...values })
      .onConflict((oc) => oc.column("year").doUpdateSet(values))
      .execute();
    return before
      ? {
          outcome: "corrected",
          year: u.year,
          before: {
            daily: Number(before.daily),
            monthly: Number(before.monthly),
            annual: Number(before.annual),
          },
        }
      : { outcome: "added", year: u.year };
  });
}

/** The years imported, as the rules read them. */
export async function importedUma(db: Kysely<DB>): Promise<UmaYear[]> {
  const rows = await db.selectFrom("uma_values").select(["year", "daily", "source"]).execute();
  return rows.map((r) => ({ year: r.year, daily: Number(r.daily), source: r.source }));
}
