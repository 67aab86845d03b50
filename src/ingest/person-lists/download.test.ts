// Where `vigia lists refresh` downloads from by default: every official URL is https (the SAT's was once plain
// http), and a plain-http --url is named in a warning before it is fetched.
import { describe, expect, it } from "vitest";
import { OFFICIAL_URLS, plainHttpWarning } from "./download.ts";

describe("official list URLs", () => {
  it.each(Object.entries(OFFICIAL_URLS).filter(([, url]) => url !== undefined))("%s is https", (_, url) => {
    expect(new URL(url as string).protocol).toBe("https:");
    expect(plainHttpWarning(url as string)).toBeUndefined();
  });

  it("the SAT's 69-B list is fetched over https", () => {
    expect(OFFICIAL_URLS["sat-69b"]).toBe(
      "https://omawww.sat.gob.mx/cifras_sat/Documents/Listado_Completo_69-B.csv",
    );
  });

  it("a plain-http address is warned about", () => {
    expect(plainHttpWarning("http://mirror.internal/69b.csv")).toMatch(
      /^http:\/\/mirror\.internal\/69b\.csv is plain http: the list is not protected in transit/,
    );
  });
});
