/**
 * The scopes an MCP server may search are fixed by whoever starts it (`ragent mcp --scope …`): a tool
 * argument may narrow them to one of those, never add another. The client (another agent, a model)
 * chooses the argument, so it is checked here, before any search.
 */
import type { Scope } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';

/** The scopes a tool call searches: all of the ceiling, or the one asked for when it is within it. */
export function narrowScopes(ceiling: readonly Scope[], requested: string | undefined): Scope[] {
  if (requested === undefined || requested.trim() === '') return [...ceiling];
  const scope = requested.trim();
  if (!ceiling.includes(scope)) {
    throw new RagentError('SCOPE_NOT_ALLOWED', errorMessages.SCOPE_NOT_ALLOWED({ scope, allowed: ceiling }));
  }
  return [scope];
}
