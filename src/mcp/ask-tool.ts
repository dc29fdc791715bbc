/**
 * `ask`: the full agent (the same conversations as `ragent ask`), one question in a one-off thread:
 * the answer with its numbered citations and the sources they map to, and how the turn ended.
 * Progress goes to the client as MCP progress notifications when it asked for them (a long answer
 * then keeps a client's request timeout from running out, where the client resets it on progress).
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { outcomeOf, type ProgressEvent, type Source, type TurnResult } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import { describeProgress } from '../turns/messages-en.ts';
import { narrowScopes } from './allowed-scopes.ts';
import { describeLocation, locationOf } from './document-location.ts';
import type { McpToolDependencies } from './mcp-tool-dependencies.ts';
import { locationSchema } from './search-documents-tool.ts';
import { toolError, toolResult } from './tool-result.ts';

const sourceSchema = z.object({
  file: z.string(),
  documentId: z.string(),
  location: locationSchema,
  link: z.string().optional(),
});

export function registerAsk(server: McpServer, dependencies: McpToolDependencies): void {
  server.registerTool(
    'ask',
    {
      title: 'Ask the documents',
      description:
        'Ask a question and get an answer written from the documents by ragent’s research agent, with ' +
        'numbered citations ([1], [2]) that map to the listed sources. outcome says whether the ' +
        'documents answered it (answered), did not cover it (not-found), or the agent needs a clearer ' +
        'question (clarification).',
      inputSchema: {
        question: z.string().trim().min(1).max(4000).describe('The question, in full'),
        scope: z
          .string()
          .optional()
          .describe(`Ask only this one of the server's scopes (${dependencies.scopes.join(', ')})`),
      },
      outputSchema: {
        outcome: z.enum(['answered', 'not-found', 'clarification', 'stopped']),
        answer: z.string().describe('Markdown; for a clarification, the question the agent asks back'),
        sources: z.array(sourceSchema).describe('The sources the answer cites: [1] is the first'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ question, scope }, extra) => {
      try {
        const scopes = narrowScopes(dependencies.scopes, scope);
        if ((await dependencies.ingestion.listDocuments(scopes)).length === 0) {
          throw new RagentError('SCOPE_EMPTY', errorMessages.SCOPE_EMPTY.noDocumentsInScopes({ scopes }));
        }
        const progressToken = extra._meta?.progressToken;
        let step = 0;
        const onProgress = (event: ProgressEvent) => {
          const message = progressToken === undefined ? undefined : describeProgress(event);
          if (progressToken === undefined || !message) return;
          step += 1;
          extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: step, message: message.replace(/…$/, '') },
            })
            .catch(() => {});
        };
        // A one-off thread, forgotten afterwards: a tool call has no follow-ups.
        const threadId = `mcp:ask-${randomUUID()}`;
        const result = await dependencies.conversations
          .handle({ threadId, scopes, user: 'mcp', text: question }, onProgress)
          .finally(() => dependencies.conversations.forgetThread?.(threadId));
        return renderResult(result);
      } catch (error) {
        return toolError(error, dependencies.logger, 'ask');
      }
    },
  );
}

function renderResult(result: TurnResult) {
  const outcome = outcomeOf(result);
  if (result.kind === 'clarification') {
    return toolResult(`The agent needs a clearer question: ${result.question}`, {
      outcome,
      answer: result.question,
      sources: [],
    });
  }
  if (result.kind === 'stopped')
    return toolResult(result.message, { outcome, answer: result.message, sources: [] });
  const sources = result.answer.sources.map(toSource);
  const list = sources.map(
    (source, index) => `[${index + 1}] ${source.file} (${describeLocation(source.location)})`,
  );
  const text =
    sources.length > 0 ? `${result.answer.body}\n\nSources:\n${list.join('\n')}` : result.answer.markdown;
  return toolResult(text, { outcome, answer: result.answer.body, sources });
}

function toSource(source: Source): z.infer<typeof sourceSchema> {
  return {
    file: source.file,
    documentId: source.docId,
    location: locationOf({
      pageStart: source.pages[0],
      pageEnd: source.pages[1],
      sectionPath: source.section ?? [],
    }),
    ...(source.link ? { link: source.link } : {}),
  };
}
