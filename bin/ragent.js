#!/usr/bin/env node
// Runs the TypeScript sources directly (no build step), through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
await runCli(process.argv);
