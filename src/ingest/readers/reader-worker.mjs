// Entry of a file reader worker thread. Workers do not inherit the parent's TypeScript loader (the
// CLI's, vitest's or the bench's), so each registers tsx before loading the TypeScript module.
import { register } from 'tsx/esm/api';

register();
await import('./reader-worker.ts');
