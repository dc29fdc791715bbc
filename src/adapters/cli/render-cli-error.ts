import { describeError, isRagentError } from '../../errors.ts';

/** One clear line (or a few, for config errors) for the terminal. */
export function renderCliError(error: unknown): string {
  if (isRagentError(error)) return `ragent: ${error.message}`;
  return `ragent: unexpected error: ${describeError(error)}`;
}
