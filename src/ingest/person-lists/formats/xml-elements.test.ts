// The streamed XML reader's limit is a limit on what it holds: a record that never closes (its closing tag missing,
// or even the end of its opening tag) is refused as soon as it passes MAX_ELEMENT_BYTES, with the line and byte it
// starts at, and the rest of the stream is never pulled. Reproduces a 50 MiB list whose record tag is left open
// (which once held 2.2 GB for minutes), counting the bytes taken from the source.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sdnEntries } from "../../sanctions/sdn-scan.ts";
import { collect } from "./test-helpers.ts";
import { readUn } from "./un.ts";
import { MAX_ELEMENT_BYTES, xmlElementsFrom } from "./xml-elements.ts";

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A 50 MiB list: `head`, then filler that never closes what `head` opened; counts the bytes pulled from it. */
function runaway(head: string, total = 50 * MiB) {
  const pulled = { bytes: 0 };
  async function* source(): AsyncGenerator<Uint8Array> {
    const first = Buffer.from(head);
    pulled.bytes += first.length;
    yield first;
    const filler = Buffer.from("<x>y</x>\n".repeat(CHUNK / 9));
    while (pulled.bytes < total) {
      pulled.bytes += filler.length;
      yield filler;
    }
    const tail = Buffer.from("</CONSOLIDATED_LIST>\n");
    pulled.bytes += tail.length;
    yield tail;
  }
  return { pulled, source: source() };
}

const UN_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<CONSOLIDATED_LIST dateGenerated="2026-01-05T10:00:00Z">\n<INDIVIDUALS>\n' +
  "<INDIVIDUAL><DATAID>1</DATAID><REFERENCE_NUMBER>QDi.001</REFERENCE_NUMBER><FIRST_NAME>ONE</FIRST_NAME></INDIVIDUAL>\n";

async function drain(elements: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of elements) n += 1;
  return n;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-xml-elements-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("a record that never closes", () => {
  it.each([
    ["its closing tag missing", `${UN_HEAD}<INDIVIDUAL><DATAID>2</DATAID>\n`],
    ["its opening tag never ends", `${UN_HEAD}<INDIVIDUAL DATAID="2" `],
  ])(
    "%s: refused at the limit, naming it and where the record starts, without reading on",
    async (_, head) => {
      const { pulled, source } = runaway(head);
      const options = { root: "CONSOLIDATED_LIST", names: ["INDIVIDUAL", "ENTITY"] };
      await expect(drain(xmlElementsFrom(source, "list.xml", options))).rejects.toThrow(
        `list.xml:5 (byte ${UN_HEAD.length}): a <INDIVIDUAL> runs past 4 MiB (4194304 bytes) without closing`,
      );
      // What was pulled: the limit and the chunk that crossed it, not the 50 MiB. The reader cannot hold more than
      // it pulled, so this bounds its memory too (the process's own count of buffers is no measure here: it counts
      // every buffer of the test runner's process, which other files running beside this one fill and free).
      expect(pulled.bytes).toBeLessThanOrEqual(UN_HEAD.length + MAX_ELEMENT_BYTES + 2 * CHUNK);
    },
  );

  it("the UN reader on such a 50 MiB file fails the same way, soon", async () => {
    const file = path.join(tmp, "consolidated.xml");
    const out = fs.createWriteStream(file);
    out.write(`${UN_HEAD}<INDIVIDUAL><DATAID>2</DATAID>\n`);
    const filler = "<x>y</x>\n".repeat(MiB / 9);
    for (let i = 0; i < 50; i += 1) out.write(filler);
    out.write("</INDIVIDUALS></CONSOLIDATED_LIST>\n");
    await new Promise((resolve) => out.end(resolve));
    const started = Date.now();
    await expect(collect(await readUn([file]))).rejects.toThrow(
      `${file}:5 (byte ${UN_HEAD.length}): a <INDIVIDUAL> runs past 4 MiB`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("OFAC's SDN.XML reader shares the limit", async () => {
    const head =
      '<?xml version="1.0"?>\n<sdnList>\n<publshInformation><Publish_Date>01/05/2026</Publish_Date></publshInformation>\n<sdnEntry><uid>1</uid>\n';
    const { pulled, source } = runaway(head);
    await expect(drain(sdnEntries("SDN.XML", undefined, source))).rejects.toThrow(
      `SDN.XML:4 (byte ${head.indexOf("<sdnEntry>")}): an <sdnEntry> runs past 4 MiB (4194304 bytes) without closing`,
    );
    expect(pulled.bytes).toBeLessThanOrEqual(head.length + MAX_ELEMENT_BYTES + 2 * CHUNK);
  });
});

describe("records within the limit", () => {
  it("are read whatever the chunks: split tags, multibyte characters across chunks, self-closing records", async () => {
    const xml =
      '<?xml version="1.0"?>\n<CONSOLIDATED_LIST dateGenerated="x">\n<INDIVIDUALS>\n' +
      "<INDIVIDUAL><FIRST_NAME>José Ñúñez</FIRST_NAME></INDIVIDUAL>\n" +
      "<INDIVIDUALS_NOT/>\n<ENTITY/>\n<ENTITY a='1'>\n<NAME>東京</NAME></ENTITY>\n</INDIVIDUALS>\n</CONSOLIDATED_LIST>\n";
    const bytes = Buffer.from(xml);
    for (const size of [1, 2, 3, 7, 64]) {
      async function* source() {
        for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
      }
      let prelude = "";
      const got = [];
      for await (const e of xmlElementsFrom(source(), "f", {
        root: "CONSOLIDATED_LIST",
        names: ["INDIVIDUAL", "ENTITY"],
        onPrelude: (text) => {
          prelude = text;
        },
      }))
        got.push(e);
      expect(prelude).toContain('<CONSOLIDATED_LIST dateGenerated="x">');
      expect(got.map((e) => [e.line, e.name, e.xml])).toEqual([
        [4, "INDIVIDUAL", "<INDIVIDUAL><FIRST_NAME>José Ñúñez</FIRST_NAME></INDIVIDUAL>"],
        [7, "ENTITY", "<ENTITY a='1'>\n<NAME>東京</NAME></ENTITY>"],
      ]);
      expect(got[1]?.offset).toBe(xml.indexOf("<ENTITY a=") + Buffer.byteLength("éÑúñ") - 4);
    }
  });
});
