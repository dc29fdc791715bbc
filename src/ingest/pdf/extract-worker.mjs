// Entry of a PDF extraction worker thread when ragent runs from the TypeScript sources (see
// src/worker-entry.ts; compiled, the worker starts from dist/ingest/pdf/extract-worker.js). Workers do
// not inherit the parent's TypeScript loader (the CLI's, Vitest's or the bench's), so each registers tsx.
import { register } from 'tsx/esm/api';

register();
await import('./extract-worker.ts');
