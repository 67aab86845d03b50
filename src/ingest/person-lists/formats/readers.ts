// The reader for each kind of list `vigia lists import KIND` takes (the kinds are screening's LIST_KINDS).
import type { ListKind } from "../../../screening/index.ts";
import { readFtm } from "./ftm.ts";
import { readMxLpb } from "./mx-lpb.ts";
import { readOfacSdn } from "./ofac-sdn.ts";
import type { ReadList } from "./read.ts";
import { readSat69b } from "./sat-69b.ts";
import { readUn } from "./un.ts";

export type { ListReader, ReadItem, ReadList, ReadOptions } from "./read.ts";

export const READERS: Record<ListKind, ReadList> = {
  "ofac-sdn": readOfacSdn,
  un: readUn,
  "sat-69b": readSat69b,
  "mx-lpb": readMxLpb,
  ftm: readFtm,
};
