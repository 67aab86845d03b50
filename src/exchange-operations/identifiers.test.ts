// The rails' identifiers: a CLABE's check digit, CPF and CNPJ (numeric and, since July 2026, alphanumeric), Pix keys.
import { describe, expect, it } from "vitest";
import {
  brazilianTaxIdProblem,
  clabeCheckDigit,
  clabeProblem,
  isValidCnpj,
  pixKeyProblem,
} from "./identifiers.ts";

describe("CLABE", () => {
  it("accepts a CLABE whose 18th digit is the weighted check digit (3-7-1, modulo 10) of the first 17", () => {
    // Banxico's published example of a CLABE: 002 010 07777777777 1.
    expect(clabeCheckDigit("00201007777777777")).toBe(1);
    expect(clabeProblem("002010077777777771")).toBeNull();
    expect(clabeProblem("646180157000000004")).toBeNull();
  });

  it("refuses a wrong check digit naming the right one, and a CLABE of the wrong length", () => {
    expect(clabeProblem("002010077777777772")).toBe("is not a valid CLABE: its check digit should be 1");
    expect(clabeProblem("00201007777777777")).toMatch(/18 digits/);
    expect(clabeProblem("00201007777777777A")).toMatch(/18 digits/);
  });
});

describe("CPF and CNPJ", () => {
  it("checks a CPF's two check digits", () => {
    expect(brazilianTaxIdProblem("529.982.247-25")).toBeNull();
    expect(brazilianTaxIdProblem("529.982.247-24")).toMatch(/not a valid CPF/);
  });

  it("checks a numeric CNPJ, and an alphanumeric one (letters valued as their code minus 48)", () => {
    expect(isValidCnpj("11.222.333/0001-81")).toBe(true);
    expect(isValidCnpj("11.222.333/0001-82")).toBe(false);
    // The Receita Federal's example of an alphanumeric CNPJ.
    expect(isValidCnpj("12.ABC.345/01DE-35")).toBe(true);
    expect(isValidCnpj("12.ABC.345/01DE-36")).toBe(false);
    expect(isValidCnpj("00000000000000")).toBe(false);
    expect(brazilianTaxIdProblem("12ABC34501DE35")).toBeNull();
    expect(brazilianTaxIdProblem("123")).toMatch(/CPF \(11 digits\) or a CNPJ/);
  });
});

describe("Pix keys", () => {
  it("accepts a CPF, a CNPJ, an e-mail, a +55 phone and a random key", () => {
    for (const key of [
      "52998224725",
      "11222333000181",
      "12ABC34501DE35",
      "ana@example.com.br",
      "+5511987654321",
      "123e4567-e89b-12d3-a456-426614174000",
    ])
      expect(pixKeyProblem(key), key).toBeNull();
  });

  it("refuses anything else, saying what a key is", () => {
    expect(pixKeyProblem("not a key")).toMatch(/CPF, a CNPJ, an e-mail/);
  });
});
