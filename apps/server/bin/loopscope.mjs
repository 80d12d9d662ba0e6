#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so there is no build step between an edit and a run.
import { register } from "tsx/esm/api";
register();
await import("../src/main.ts");
