/**
 * The platform contract for text the model or a document wrote: a disguised link
 * (`[https://trusted.example](https://evil.example/login)`) never shows as a live masked link — not
 * in a native stream's pieces (Slack), not in the edits that show an answer being written (Slack
 * where streaming is refused, Discord), not in the final reply.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatScript } from '../../fakes/fake-ollama.ts';
import { slackModel } from '../../slack/slack-model.ts';
import { roleOf } from '../../support/model-roles.ts';
import { discordDriver } from './discord-driver.ts';
import type { DriverFactory, DriverOptions, PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

// Many words after the link, streamed one by one: the link is complete long before the answer is.
const disguisedAnswer = `Log in at [https://trusted.example](https://evil.example/login) first. ${'Then run the loop again. '.repeat(12)}\n\nSources:\n- none`;
/** The masked link with its disguising text, as a renderer would make it live. */
const liveDisguise = /\[https:\/\/trusted\.example\]\(https:\/\/evil/;

const model: ChatScript = (request, index) =>
  roleOf(request) === 'orchestrator' && request.messages.some((message) => message.role === 'tool')
    ? { content: disguisedAnswer, tokenDelayMs: 15 }
    : slackModel(request, index);

const cases: Array<[string, DriverFactory, DriverOptions]> = [
  ['Slack, streamed natively', slackDriver('http'), { model }],
  ['Slack, streaming refused (edits)', slackDriver('http'), { model, streaming: false }],
  ['Discord (edits)', discordDriver, { model }],
];

describe.each(cases)('platform contract: disguised links on %s', (_name, factory, options) => {
  let driver: PlatformDriver | undefined;
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  it('shows the real target in every piece and edit of a streamed answer, and in the reply', async () => {
    driver = await factory.start(options);
    const thread = await driver.mention('Where do I log in?');
    const [reply] = await driver.replies(thread, 1);
    expect(reply).toContain('https://evil.example/login');
    const shown = driver.shownTexts();
    expect(shown.some((text) => text.includes('evil.example'))).toBe(true);
    expect(shown.filter((text) => liveDisguise.test(text))).toEqual([]);
  });
});
