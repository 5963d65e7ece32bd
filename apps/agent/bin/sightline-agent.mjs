#!/usr/bin/env node
// Runs the TypeScript CLI with tsx's loader registered in this same process (signals and kill -9
// reach the agent itself), so `npx @sightline/agent` needs no build step.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
await import(pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts')).href);
