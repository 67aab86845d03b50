// Guatemala: no virtual-asset reporting threshold is in force. Until 16-09-2026 the Ley contra el Lavado de Dinero u
// Otros Activos (Decreto 67-2001) did not cover virtual-asset providers, and its Art. 24 register was for cash
// (notes and coins, Acuerdo Gubernativo 118-2002 Art. 2 a). Decreto 15-2026 (Diario de Centro América No. 92,
// 17-06-2026, in force 17-09-2026; read in an unofficial transcription) repealed it and names virtual-asset
// providers as obligated persons, but its reglamento (thresholds, forms, travel-rule data) has not been issued and
// its Art. 31 register is for cash. So Guatemala's rules are indicators only, never a cash rule on a crypto transfer,
// and its files are a working record (docs/reports/gt.md).
import { type LawRule, VIRTUAL_ASSET_ACTS } from "../../regulation/index.ts";
import type { Jurisdiction } from "../port.ts";
import { nameGap, thresholdMonthly } from "../threshold-layout.ts";
import { GtSettingsSchema } from "./settings.ts";

export const GT_TIME_ZONE = "America/Guatemala";

const GT_RULES: readonly LawRule[] = [
  {
    id: "GT-INDICADOR-10K",
    name: "Indicador: transferencia de activos virtuales de USD 10,000 o más",
    risk: "warn",
    versions: [
      {
        validTo: "2026-09-16",
        description:
          "Indicator only: a virtual-asset transfer of USD 10,000 or more. Guatemala has no virtual-asset regime in force: Decreto 67-2001 does not cover virtual-asset providers, and its register of transactions over USD 10,000 is for cash (notes and coins), which a crypto transfer is not.",
        source:
          "Decreto 67-2001, Ley contra el Lavado de Dinero u Otros Activos, Art. 24; Acuerdo Gubernativo 118-2002, Art. 2 a) (read in unofficial transcriptions)",
        verified: false,
        check: { kind: "single", minimum: { usd: 10_000 }, compare: "at-least", acts: VIRTUAL_ASSET_ACTS },
      },
      {
        validFrom: "2026-09-17",
        description:
          "Indicator only: a virtual-asset transfer of USD 10,000 or more. No virtual-asset reporting threshold is in force: Decreto 15-2026 names virtual-asset providers as obligated persons, but its reglamento, which sets thresholds, forms and the data that travel with transfers, has not been issued, and its Art. 31 register (USD 10,000 or more) is for cash, which a crypto transfer is not.",
        source:
          "Decreto 15-2026, Ley Integral para la Prevención y Represión del Lavado de Dinero u Otros Activos y del Financiamiento del Terrorismo (Diario de Centro América No. 92, 17-06-2026; read in an unofficial transcription), Arts. 3, 31, 39, 127",
        verified: false,
        check: { kind: "single", minimum: { usd: 10_000 }, compare: "at-least", acts: VIRTUAL_ASSET_ACTS },
      },
    ],
  },
];

export const GUATEMALA: Jurisdiction = {
  code: "GT",
  countryCode: "GT",
  country: "guatemala",
  name: "Guatemala",
  regulator: "IVE (Intendencia de Verificación Especial, Superintendencia de Bancos)",
  timeZone: GT_TIME_ZONE,
  currency: "GTQ",
  rules: GT_RULES,
  settings: GtSettingsSchema,
  thresholds: [
    { name: "GT indicator (no virtual-asset threshold in force)", currency: "USD", amountOn: () => 10_000 },
  ],
  profileGap: nameGap,
  lookbackStart: (bounds) => bounds.start,
  monthly: (input) =>
    thresholdMonthly(input, {
      book: GUATEMALA,
      name: (period) => `the working record of indicators of ${period}`,
    }),
  // No virtual-asset filing is due in Guatemala until its reglamento sets one.
  calendar: () => [],
};
