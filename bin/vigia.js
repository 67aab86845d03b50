#!/usr/bin/env node
// Entry point of the `vigia` command: runs the TypeScript sources through tsx, so a checkout needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
await main();
