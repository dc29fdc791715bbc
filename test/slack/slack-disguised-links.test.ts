import { afterEach, describe, expect, it } from 'vitest';
import type { ChatScript } from '../fakes/fake-ollama.ts';
import { roleOf } from '../support/model-roles.ts';
import { blockText, defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';
import { slackModel } from './slack-model.ts';

const disguised = 'Log in at [https://trusted.example](https://evil.example/login) first?';

describe('Slack: disguised links', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('shows the real target of a link whose text is another address, in blocks and in the text', async () => {
    const model: ChatScript = (request, index) =>
      roleOf(request) === 'rewrite'
        ? { content: JSON.stringify({ isClear: false, questions: [], clarificationNeeded: disguised }) }
        : slackModel(request, index);
    harness = await startSlackHarness({ model });
    const ts = await harness.mention('Where do I log in?');
    const [reply] = await harness.waitForReply(defaultChannel, ts);
    const shown = `${reply?.text}\n${reply && blockText(reply)}`;
    expect(shown).toContain('https://evil.example/login');
    expect(shown).not.toContain('trusted.example');
  });
});
