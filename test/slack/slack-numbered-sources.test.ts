/**
 * Over the wire: when the model cites by number, every [n] of the posted answer matches a numbered
 * line of the sources context line (in order, linked to the upload).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatScript } from '../fakes/fake-ollama.ts';
import { roleOf } from '../support/model-roles.ts';
import { sharePdfForIngest } from './share-pdf-for-ingest.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';
import { slackModel } from './slack-model.ts';

/** Cites what the search showed, in reverse order, so the renumbering is visible too. */
const numberingModel: ChatScript = (request, index) => {
  const results = request.messages.filter((message) => message.role === 'tool');
  if (roleOf(request) !== 'orchestrator' || results.length === 0) return slackModel(request, index);
  const found = results.map((message) => message.content).join('\n');
  const shown = [...found.matchAll(/Cite as: \[(\d+)\]/g)].map((match) => match[1]).reverse();
  return { content: `Zebras are looked after with builtins ${shown.map((n) => `[${n}]`).join('')}.` };
};

describe('Slack: numbered sources', () => {
  let harness: SlackHarness;
  beforeAll(async () => {
    harness = await startSlackHarness({ model: numberingModel });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('numbers the sources line the way the answer cites', async () => {
    await sharePdfForIngest(
      harness,
      defaultChannel,
      'zebra-care.pdf',
      'The zebracount builtin counts the stripes of a zebra.',
    );
    const ts = await harness.mention('How are zebras looked after?');
    const [answer] = await harness.waitForReply(defaultChannel, ts);
    const blocks = (answer?.blocks ?? []) as Array<{
      type: string;
      text?: string;
      elements?: Array<{ text: string }>;
    }>;
    const body = blocks.find((block) => block.type === 'markdown')?.text ?? '';
    const cited = [...new Set([...body.matchAll(/\[(\d+)\]/g)].map((match) => match[1]))];
    expect(cited.length).toBeGreaterThan(0);
    expect(cited).toEqual(cited.map((_, index) => String(index + 1)));
    const line = blocks.find((block) => block.type === 'context')?.elements?.[0]?.text ?? '';
    const lines = line.replace(/^:page_facing_up: /, '').split('\n');
    expect(lines).toHaveLength(cited.length);
    for (const [index, entry] of lines.entries()) {
      expect(entry).toMatch(
        new RegExp(
          `^\\[${index + 1}\\] \\*<https://ragent-test\\.slack\\.com/files/F[A-Z0-9]+/zebra-care\\.pdf\\|zebra-care\\.pdf>\\* p`,
        ),
      );
    }
  });
});
