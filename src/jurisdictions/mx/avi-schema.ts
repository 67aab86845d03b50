// The official XML schema of Mexico's monthly AVI report (avisos of activos virtuales, LFPIORPI Art. 17 XVI),
// committed beside the code that loads it so the product never reads it from outside its own tree.
//
// avi.xsd is verbatim, unchanged: the schema the UIF/SAT publish at
// www.pld.hacienda.gob.mx/work/models/PLD/documentos/xsd/avi.xsd, as copied into SAT-CFDI/python-satcfdi at commit
// d6a9d2267e3a117b04c4b9c1a4a420d8427097d9 (satcfdi/transform/schemas/www.pld.hacienda.gob.mx/work/models/PLD/
// documentos/xsd/avi.xsd, unchanged there since November 2022). An official government schema, redistributed as
// published. Its SHA-256 is recorded below so that an accidental edit fails the tests.
import fs from "node:fs";

export const AVI_XSD_FILE = new URL("./avi.xsd", import.meta.url);
export const AVI_XSD_SHA256 = "dd1dba886d14cf8d824341ac320651d9b06609b80c7ae37f59500b959709f2a6";
export const AVI_NAMESPACE = "http://www.uif.shcp.gob.mx/recepcion/avi";

/** The schema's text, for the validator of generated reports. */
export const readAviSchema = (): string => fs.readFileSync(AVI_XSD_FILE, "utf8");
