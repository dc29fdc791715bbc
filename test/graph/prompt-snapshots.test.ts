/**
 * What the model sees in typical turns, as reviewable files under __snapshots__/: every chat request
 * of the turn (role, options, tools, schema, each message). A change to a prompt, a tool result format
 * or the order of messages shows up as a diff of these files in review (`vitest -u` rewrites them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeChatRequest } from '../fakes/fake-ollama.ts';
import { roleOf } from '../support/model-roles.ts';
import { createHarness, type Harness, requestText } from './graph-harness.ts';
import { bashrefDocument, recordedParents } from './recorded-parents.ts';

function describeRequests(requests: readonly FakeChatRequest[], withToolDefinitions = false): string {
  const parts = requests.map((request, index) => {
    const lines = [`## Call ${index + 1}: ${roleOf(request)}`, ''];
    lines.push(`Options: ${JSON.stringify(request.options)}`);
    if (request.tools?.length) {
      lines.push(`Tools: ${request.tools.map((tool) => tool.function.name).join(', ')}`);
      if (withToolDefinitions && index === requests.findIndex((each) => each.tools?.length))
        lines.push('', '```json', JSON.stringify(request.tools, null, 2), '```');
    }
    if (request.format) lines.push(`Format: ${JSON.stringify(request.format)}`);
    for (const message of request.messages) {
      lines.push('', `### ${message.role}`, '', message.content || '(empty)');
      for (const call of message.tool_calls ?? [])
        lines.push(`→ ${call.function.name}(${JSON.stringify(call.function.arguments)})`);
    }
    return lines.join('\n');
  });
  return `${parts.join('\n\n')}\n`;
}

const toolResults = (request: FakeChatRequest) =>
  request.messages.filter((message) => message.role === 'tool');

describe('prompt snapshots of typical turns', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('first question', async () => {
    harness = await createHarness();
    expect((await harness.ask('How does a while loop work?')).kind).toBe('answer');
    await expect(describeRequests(harness.fake.chatRequests(), true)).toMatchFileSnapshot(
      './__snapshots__/first-question.md',
    );
  });

  it('follow-up', async () => {
    harness = await createHarness();
    await harness.ask('How does a while loop work?');
    const before = harness.fake.chatRequests().length;
    expect((await harness.ask('And the until loop?')).kind).toBe('answer');
    await expect(describeRequests(harness.fake.chatRequests().slice(before))).toMatchFileSnapshot(
      './__snapshots__/follow-up.md',
    );
  });

  it('clarification reply', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = (request) =>
      requestText(request).includes('Clarification 1')
        ? {
            content: JSON.stringify({
              isClear: true,
              questions: ['How does the while loop work?', 'How does the until loop work?'],
              clarificationNeeded: '',
            }),
          }
        : {
            content: JSON.stringify({
              isClear: false,
              questions: [],
              clarificationNeeded: 'Which loops do you mean: while, until or both?',
            }),
          };
    // One model call at a time, so the two sub-questions' calls arrive in a fixed order.
    harness.scripts.orchestrator = (request) =>
      toolResults(request).length === 0
        ? {
            toolCalls: [
              {
                name: 'search_child_chunks',
                arguments: {
                  query: /until/.test(requestText(request)) ? 'until loop' : 'while loop',
                  limit: 2,
                },
              },
            ],
          }
        : { content: 'The loop runs its commands while (or until) the test succeeds.' };
    expect((await harness.ask('How do those loops work?')).kind).toBe('clarification');
    const before = harness.fake.chatRequests().length;
    expect((await harness.ask('both, please')).kind).toBe('answer');
    const turn = harness.fake.chatRequests().slice(before);
    // The two sub-questions run in parallel: order their calls by sub-question for a stable file.
    const order = (request: FakeChatRequest) =>
      roleOf(request) === 'orchestrator' ? (request.messages[1]?.content.includes('until') ? 2 : 1) : 0;
    const sorted = turn
      .map((request, index) => ({ request, index }))
      .sort((a, b) => {
        const role = (request: FakeChatRequest) =>
          ['rewrite', 'orchestrator', 'aggregate'].indexOf(roleOf(request));
        return role(a.request) - role(b.request) || order(a.request) - order(b.request) || a.index - b.index;
      })
      .map((entry) => entry.request);
    await expect(describeRequests(sorted)).toMatchFileSnapshot('./__snapshots__/clarification-reply.md');
  });

  it('compression (one search and two long parent reads in a 4k window)', async () => {
    harness = await createHarness({
      documents: [bashrefDocument()],
      environment: { OLLAMA_NUM_CTX: '4096' },
    });
    const [loops, conditionals] = recordedParents();
    harness.scripts.orchestrator = (request) => {
      const results = toolResults(request).length;
      const compressed = requestText(request).includes('Research notes so far');
      if (!compressed && results === 0)
        return {
          toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while until loop', limit: 5 } }],
        };
      if (!compressed && results === 1)
        return {
          toolCalls: [loops!.id, conditionals!.id].map((id) => ({
            name: 'retrieve_parent_chunks',
            arguments: { parent_id: id },
          })),
        };
      return { content: 'The while loop runs its commands as long as the test succeeds.' };
    };
    harness.scripts.compress = () => ({
      content: [
        'Facts found:',
        `- while and until loops (bashref.pdf, p. 17–18, Parent ID ${loops!.id})`,
        'Key sentences (word for word):',
        '- "Execute consequent-commands as long as test-commands has an exit status which is not zero." (bashref.pdf, p. 17–18)',
        'Still missing:',
        '- nothing',
      ].join('\n'),
    });
    expect((await harness.ask('How do the while and until loops work?')).kind).toBe('answer');
    expect(harness.requestsOf('compress')).toHaveLength(1);
    await expect(describeRequests(harness.fake.chatRequests())).toMatchFileSnapshot(
      './__snapshots__/compression.md',
    );
  });

  it('fallback (the model sends an empty final reply)', async () => {
    harness = await createHarness();
    harness.scripts.orchestrator = (request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop' } }] }
        : { content: '' };
    expect((await harness.ask('How does a while loop work?')).kind).toBe('answer');
    await expect(describeRequests(harness.fake.chatRequests())).toMatchFileSnapshot(
      './__snapshots__/fallback.md',
    );
  });

  it('joining a thread (a question about the thread, answered from it)', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = (request) => ({
      content: JSON.stringify({
        isClear: true,
        questions: [],
        clarificationNeeded: '',
        fromThread: requestText(request).includes('Earlier messages in this thread'),
      }),
    });
    const result = await harness.conversations.handle(
      { threadId: 'cli:thread', scopes: ['shared'], user: 'tester', text: 'What did we decide above?' },
      undefined,
      {
        readThread: async () => [
          {
            author: 'Ana',
            text: 'Shall we ship on Friday? <!channel>',
            fromBot: false,
            at: '2026-01-01T10:00:00Z',
          },
          {
            author: 'Ben',
            text: 'Yes: Friday, after the freeze.',
            fromBot: false,
            at: '2026-01-01T10:05:00Z',
          },
        ],
      },
    );
    expect(result.kind).toBe('answer');
    if (result.kind === 'answer')
      expect(result.answer.sources.map((source) => source.file)).toEqual(['this thread']);
    expect(harness.requestsOf('orchestrator')).toHaveLength(0);
    await expect(describeRequests(harness.fake.chatRequests())).toMatchFileSnapshot(
      './__snapshots__/thread-summary.md',
    );
  });
});
