// The titles of the jurisdictions' rules (src/jurisdictions), by rule id, in the reader's language. A rule's own
// `name` in the rule data stays what it was (the title in the law's language for Mexico, Colombia, Guatemala and
// El Salvador; English for the international ones) and is what webhooks carry; the API's answers to a person read
// the title here. A rule without an entry keeps its own name (rules.test checks every rule has one).
import { defineMessages } from "../define.ts";

export const law = defineMessages({
  en: {
    "rule.XB-OFAC": "OFAC SDN: sanctioned counterparty",
    "rule.XB-MIXER": "FATF red flag: mixer",
    "rule.XB-TRAVEL-1000": "FATF travel rule",
    "rule.MX-AVISO": "LFPIORPI: aviso by amount (virtual assets)",
    "rule.MX-ACUMULACION": "LFPIORPI: accumulated operations",
    "rule.MX-AVISO-COMISION": "LFPIORPI: aviso for the fee charged",
    "rule.MX-24H-LISTA": "LFPIORPI: 24-hour aviso (counterparty on a sanctions list)",
    "rule.MX-24H-INDICIOS": "LFPIORPI: 24-hour aviso (indicia of illicit origin)",
    "rule.MX-LPB": "RCG: client on the Lista de Personas Bloqueadas (24-hour aviso)",
    "rule.MX-JURISDICCION-RIESGO": "RCG: high-risk jurisdiction alert",
    "rule.MX-TRAVEL": "LFPIORPI: originator and beneficiary information",
    "rule.CO-TX-150": "UIAF Resolution 314/2021: single transaction",
    "rule.CO-TX-450": "UIAF Resolution 314/2021: multiple transactions",
    "rule.GT-INDICADOR-10K": "Indicator: virtual-asset transfer of USD 10,000 or more",
    "rule.SV-REGULADA": "Regulated operation (indicator): digital assets",
    "rule.SV-REGULADA-MES": "Regulated operations accumulated in the month (indicator)",
  },
  es: {
    "rule.XB-OFAC": "OFAC SDN: contraparte sancionada",
    "rule.XB-MIXER": "Señal de alerta del GAFI: mezclador",
    "rule.XB-TRAVEL-1000": "Regla de viaje del GAFI",
    "rule.MX-AVISO": "LFPIORPI: aviso por monto (activos virtuales)",
    "rule.MX-ACUMULACION": "LFPIORPI: acumulación de operaciones",
    "rule.MX-AVISO-COMISION": "LFPIORPI: aviso por contraprestación",
    "rule.MX-24H-LISTA": "LFPIORPI: aviso de 24 horas (contraparte en listas de sanciones)",
    "rule.MX-24H-INDICIOS": "LFPIORPI: aviso de 24 horas (indicios de procedencia ilícita)",
    "rule.MX-LPB": "RCG: cliente en la Lista de Personas Bloqueadas (aviso de 24 horas)",
    "rule.MX-JURISDICCION-RIESGO": "RCG: alerta por jurisdicción de alto riesgo",
    "rule.MX-TRAVEL": "LFPIORPI: información del originante y del receptor",
    "rule.CO-TX-150": "Resolución UIAF 314/2021: transacción individual",
    "rule.CO-TX-450": "Resolución UIAF 314/2021: transacciones múltiples",
    "rule.GT-INDICADOR-10K": "Indicador: transferencia de activos virtuales de USD 10,000 o más",
    "rule.SV-REGULADA": "Operación regulada (indicador): activos digitales",
    "rule.SV-REGULADA-MES": "Operaciones reguladas acumuladas en el mes (indicador)",
  },
});
