// An <sdnEntry> read as its name, programs and digital currency addresses, entities decoded, other ids ignored.
import { describe, expect, it } from "vitest";
import { parseSdnEntry } from "./sdn-entry.ts";

describe("SDN entry", () => {
  it("reads the name, programs and digital currency addresses", () => {
    const entry = parseSdnEntry(`<sdnEntry>
      <uid>1</uid><firstName>Ana</firstName><lastName>P&amp;Q TRADING</lastName><sdnType>Individual</sdnType>
      <programList><program>CYBER2</program></programList>
      <akaList><aka><uid>2</uid><lastName>ALIAS</lastName></aka></akaList>
      <idList>
        <id><uid>3</uid><idType>Passport</idType><idNumber>X1</idNumber></id>
        <id><uid>4</uid><idType>Digital Currency Address - XBT</idType><idNumber> 1ABC </idNumber></id>
      </idList>
    </sdnEntry>`);
    expect(entry).toEqual({
      uid: "1",
      name: "Ana P&Q TRADING",
      programs: ["CYBER2"],
      addresses: [{ code: "XBT", address: "1ABC" }],
    });
  });

  it("skips entries without digital currency addresses", () => {
    expect(
      parseSdnEntry("<sdnEntry><uid>36</uid><lastName>AEROCARIBBEAN AIRLINES</lastName></sdnEntry>"),
    ).toBe(undefined);
  });

  it("expands no DOCTYPE entity (an entity bomb stays text)", () => {
    const entry =
      parseSdnEntry(`<!DOCTYPE x [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
    <sdnEntry><uid>9</uid><lastName>&b;</lastName>
      <idList><id><uid>5</uid><idType>Digital Currency Address - ETH</idType><idNumber>0xabc</idNumber></id></idList>
    </sdnEntry>`);
    expect(entry?.name).toBe("&b;");
  });
});
