import { RagentError } from '../../errors.ts';
import type { Services } from '../../main.ts';
import type { RunningAdapter } from '../running-adapter.ts';

// Placeholder until issue #6 builds the Discord adapter.
export async function startDiscord(_services: Services): Promise<RunningAdapter> {
  throw new RagentError('INTERNAL', 'The Discord adapter is not built yet (issue #6).');
}
