/** What every MCP tool returns: text for people and models, the same data as `structuredContent`. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError, isRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';

export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * A failed call as the client sees it (`isError: true` and a message that says what to do); the log
 * (stderr) keeps the cause of unexpected failures.
 */
export function toolError(error: unknown, logger: Logger, tool: string): CallToolResult {
  if (!isRagentError(error)) logger.error({ err: error, tool }, 'MCP tool failed');
  const text = isRagentError(error) ? error.message : `The ${tool} tool failed: ${describeError(error)}.`;
  return { content: [{ type: 'text', text }], isError: true };
}
