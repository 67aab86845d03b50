// The committed AVI schema is the official one, whole: the recorded hash, the AVI namespace, and the root element
// `archivo` with its `informe`, `mes_reportado`, `sujeto_obligado` and `aviso`.
import { createHash } from "node:crypto";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { AVI_NAMESPACE, AVI_XSD_SHA256, readAviSchema } from "./avi-schema.ts";

describe("AVI schema", () => {
  const text = readAviSchema();

  it("is the official file, byte for byte", () => {
    expect(createHash("sha256").update(text, "utf8").digest("hex")).toBe(AVI_XSD_SHA256);
  });

  it("declares the AVI namespace and the archivo > informe > aviso structure", () => {
    // Every element as an array, so that one child and many read alike; attributes stay plain strings.
    const parser = new XMLParser({
      ignoreAttributes: false,
      isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
    });
    const schema = parser.parse(text)["xsd:schema"][0];
    expect(schema["@_targetNamespace"]).toBe(AVI_NAMESPACE);
    const elements = schema["xsd:element"].map((element: Record<string, string>) => element["@_name"]);
    expect(elements).toEqual(["archivo"]);
    const types = new Map<string, Record<string, unknown>>(
      schema["xsd:complexType"].map((type: Record<string, unknown>) => [type["@_name"], type]),
    );
    const children = (name: string) =>
      (
        (types.get(name)?.["xsd:sequence"] as Record<string, Record<string, string>[]>[] | undefined)?.[0]?.[
          "xsd:element"
        ] ?? []
      ).map((element) => element["@_name"]);
    expect(children("archivo_type")).toEqual(["informe"]);
    expect(children("informe_type")).toEqual(["mes_reportado", "sujeto_obligado", "aviso"]);
  });
});
