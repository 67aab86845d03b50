// Validation of generated AVI files against the official schema (avi.xsd, loaded once), with libxml2's xmllint
// compiled to WebAssembly: a file that does not validate is not stored, and its first errors say why.
import { validateXML } from "xmllint-wasm";
import { readAviSchema } from "./avi-schema.ts";

let schema: string | undefined;

export type SchemaCheck = { valid: true } | { valid: false; errors: string[] };

export async function validateAvi(xml: string): Promise<SchemaCheck> {
  schema ??= readAviSchema();
  const result = await validateXML({
    xml: { fileName: "report.xml", contents: xml },
    schema: { fileName: "avi.xsd", contents: schema },
  });
  if (result.valid) return { valid: true };
  const errors = result.errors.map((e) =>
    e.message.replace("{http://www.uif.shcp.gob.mx/recepcion/avi}", "").trim(),
  );
  return { valid: false, errors: errors.length > 0 ? errors : [result.rawOutput.trim() || "not valid"] };
}
