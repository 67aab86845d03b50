// The SAT's "Listado completo de contribuyentes (Artículo 69-B del CFF)"
// (https://omawww.sat.gob.mx/cifras_sat/Documents/Listado_Completo_69-B.csv): a title line with the update date
// ("Información actualizada al 30 de noviembre de 2022"), a title, the header row (No, RFC, Nombre del
// Contribuyente, Situación del contribuyente, then the oficios and publication dates) and one row per taxpayer.
// The file is Latin-1 (Windows-1252: its curly quotes are 0x93/0x94); a UTF-8 copy is read too. Every row is kept
// with its situation (Presunto, Definitivo, Desvirtuado, Sentencia Favorable) as its programme: what a
// "Desvirtuado" means for screening is decided downstream. Rows whose RFC the SAT withheld by court order
// ("XXXXXXXXXXXX", "Información suprimida ...") are skipped: there is nobody to match.
import type { ListInfo } from "../../../screening/index.ts";
import { InputError } from "../../labels/row-problems.ts";
import { csvRows, detectEncoding } from "./csv.ts";
import { oneDate } from "./dates.ts";
import { compact, RFC } from "./identifiers.ts";
import type { ReadItem, ReadList } from "./read.ts";
import { clean, oneFile } from "./text.ts";

const KIND = "sat-69b";
/** The header is the third line of the SAT's file; a few more title lines are tolerated. */
const MAX_TITLE_ROWS = 10;

const MESES: Record<string, string> = {
  enero: "01",
  febrero: "02",
  marzo: "03",
  abril: "04",
  mayo: "05",
  junio: "06",
  julio: "07",
  agosto: "08",
  septiembre: "09",
  setiembre: "09",
  octubre: "10",
  noviembre: "11",
  diciembre: "12",
};

const fold = (text: string) =>
  clean(text)
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

/** "... actualizada al 30 de noviembre de 2022 ..." as 2022-11-30. */
export function spanishDate(text: string): string | undefined {
  const m = /(\d{1,2})\s+de\s+([a-z]+)\s+(?:de|del)\s+(\d{4})/.exec(fold(text));
  if (!m) return undefined;
  const month = MESES[m[2] as string];
  return month ? oneDate(`${m[3]}-${month}-${(m[1] as string).padStart(2, "0")}`) : undefined;
}

export const readSat69b: ReadList = async (files, options) => {
  const file = oneFile(KIND, files);
  const encoding = await detectEncoding(file);
  const info: ListInfo = {
    kind: KIND,
    version: undefined,
    listDate: undefined,
    source: options?.source ?? file,
  };
  const rows = csvRows(file, { encoding });
  // Read the title lines and the header now, so that a file that is not the 69-B list fails before any import.
  let columns: { rfc: number; name: number; situation: number } | undefined;
  let headerLine = 0;
  for (let i = 0; i < MAX_TITLE_ROWS && !columns; i++) {
    const next = await rows.next().catch((error: unknown) => {
      // A file that is not CSV at all (the UN's XML given as 69-B) fails in the parser: say what was expected.
      throw new InputError(
        `${(error as Error).message}: not the SAT's 69-B list, a CSV whose header row is "No,RFC,Nombre del Contribuyente,Situación del contribuyente,..."`,
      );
    });
    if (next.done) break;
    const { line, values } = next.value;
    const folded = values.map(fold);
    const rfc = folded.indexOf("rfc");
    const name = folded.findIndex((v) => v.startsWith("nombre del contribuyente"));
    const situation = folded.findIndex((v) => v.startsWith("situacion del contribuyente"));
    if (rfc >= 0 && name >= 0 && situation >= 0) {
      columns = { rfc, name, situation };
      headerLine = line;
    } else if (!info.listDate) {
      const date = spanishDate(values.join(" "));
      if (date && /actualizad/.test(folded.join(" "))) {
        info.listDate = date;
        info.version = date;
      }
    }
  }
  if (!columns) {
    await rows.return(undefined);
    throw new InputError(
      `${file}: not the SAT's 69-B list: no header row "No,RFC,Nombre del Contribuyente,Situación del contribuyente,..." in its first ${MAX_TITLE_ROWS} lines`,
    );
  }
  const { rfc: rfcAt, name: nameAt, situation: situationAt } = columns;
  const width = Math.max(rfcAt, nameAt, situationAt) + 1;
  async function* items(): AsyncGenerator<ReadItem> {
    for await (const { line, values } of rows) {
      if (values.every((v) => clean(v) === "")) continue;
      if (values.length < width) {
        yield {
          line,
          problem: `expected at least ${width} columns (as the header on line ${headerLine}), got ${values.length}`,
        };
        continue;
      }
      const rfc = compact(clean(values[rfcAt]));
      const name = clean(values[nameAt]);
      const situation = clean(values[situationAt]);
      if (/^X+$/.test(rfc)) {
        yield { line, skip: "RFC withheld by the SAT (información suprimida)" };
        continue;
      }
      if (!RFC.test(rfc)) {
        yield {
          line,
          problem: `RFC "${clean(values[rfcAt])}" is not an RFC (12 or 13 characters: letters, YYMMDD, homoclave)`,
        };
        continue;
      }
      if (!name) {
        yield { line, problem: `RFC ${rfc} has no name` };
        continue;
      }
      if (!situation) {
        yield { line, problem: `RFC ${rfc} has no situación` };
        continue;
      }
      yield {
        line,
        entry: {
          entryId: rfc,
          // 12 characters: persona moral; 13: persona física.
          type: rfc.length === 12 ? "entity" : "person",
          names: [name],
          dates: [],
          countries: ["MX"],
          identifiers: [{ kind: "rfc", value: rfc, country: "MX" }],
          programs: [situation],
        },
      };
    }
  }
  return { info, items: items() };
};
