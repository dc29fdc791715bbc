import { RagentError } from '../../errors.ts';
import type { Services } from '../../main.ts';
import type { RunningAdapter } from '../running-adapter.ts';

// Placeholder until issue #5 builds the Slack adapter.
export async function startSlack(_services: Services): Promise<RunningAdapter> {
  throw new RagentError('INTERNAL', 'The Slack adapter is not built yet (issue #5).');
}
