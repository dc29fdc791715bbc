// Entry of a PDF extraction worker thread. Workers do not inherit the parent's TypeScript loader
// (the CLI's, vitest's or the bench's), so each registers tsx before loading the TypeScript module.
import { register } from 'tsx/esm/api';

register();
await import('./extract-worker.ts');
