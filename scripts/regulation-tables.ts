// Writes the law rules' tables into docs/regulation.md (between its `<!-- rules:XX -->` markers) from the rule data
// of src/jurisdictions: run it after changing a rule (`node bin/run-ts.js scripts/regulation-tables.ts`); a test
// fails while the page and the data disagree.
import fs from "node:fs";
import { withRuleTables } from "../src/jurisdictions/rule-tables.ts";

const file = new URL("../docs/regulation.md", import.meta.url);
fs.writeFileSync(file, withRuleTables(fs.readFileSync(file, "utf8")));
process.stdout.write("docs/regulation.md: rule tables written\n");
