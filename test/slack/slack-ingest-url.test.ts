/**
 * `/ragent ingest <url>` in Slack over the wire: the page is fetched under the chat's address guard
 * (loopback refused however it is written, unless RAGENT_FETCH_ALLOW lists it — here 127.0.0.1 only),
 * ingested into the channel's set named by its address, and answers cite and link the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatScript } from '../fakes/fake-ollama.ts';
import { slashCommand } from '../fakes/fake-slack-events.ts';
import { type FakeWebsite, sitePage, startFakeWebsite } from '../fakes/fake-website.ts';
import { roleOf } from '../support/model-roles.ts';
import {
  blockText,
  defaultChannel,
  defaultUser,
  type SlackHarness,
  startSlackHarness,
} from './slack-harness.ts';
import { slackModel } from './slack-model.ts';

/** The Slack tests' model, citing a web page (named by its address) the way it cites a PDF. */
const webPageModel: ChatScript = (request, index) => {
  const results = request.messages.filter((message) => message.role === 'tool');
  if (roleOf(request) !== 'orchestrator' || results.length === 0) return slackModel(request, index);
  const found = results.map((message) => message.content).join('\n');
  const page = /(https?:\/\/[^\s)"]+)/.exec(found)?.[1];
  if (!page) return { content: 'The documents do not say.' };
  // The chunk's text without its heading lines.
  const quote = found
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('#') && !/^\w+:/.test(line.trim()))
    .join(' ');
  return { content: `**From the documents:** ${quote.trim()}\n\nSources:\n- ${page} (p. 1)` };
};

describe('/ragent ingest <url> in Slack', () => {
  let harness: SlackHarness;
  let site: FakeWebsite;
  beforeAll(async () => {
    site = await startFakeWebsite();
    harness = await startSlackHarness({
      model: webPageModel,
      environment: { RAGENT_FETCH_ALLOW: '127.0.0.1' },
    });
    harness.slack.addUser({ id: defaultUser, name: 'alice' });
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    await site?.close();
  });

  async function ingest(text: string, marker: string) {
    const delivery = await harness.sender.command(
      slashCommand({
        team: harness.slack.teamId,
        channel: defaultChannel,
        user: defaultUser,
        text: `ingest ${text}`,
        responseUrl: harness.slack.responseUrl(`${text}-${Math.random()}`),
      }),
    );
    expect(delivery.status).toBe(200);
    return harness.slack.waitFor(
      () =>
        harness.slack
          .messages(defaultChannel)
          .find((message) => message.text.includes(marker) && /:white_check_mark:|:x:/.test(message.text)),
      20_000,
      `the ingest result for ${marker}`,
    );
  }

  it('refuses a loopback address written another way, and fetches nothing', async () => {
    const before = site.requests.length;
    const refused = await ingest(`<http://0x7f000002:${site.port}/refused/heating>`, '0x7f000002');
    expect(refused.text).toContain(':x:');
    expect(refused.text).toMatch(/private, loopback or link-local address/);
    expect(refused.text).toContain('RAGENT_FETCH_ALLOW');
    const mapped = await ingest(`http://[::ffff:127.0.0.3]:${site.port}/x`, '[::ffff:127.0.0.3]');
    expect(mapped.text).toContain('RAGENT_FETCH_ALLOW');
    expect(site.requests.length).toBe(before);
  });

  it('ingests an allowed page into the channel, cited and linked by its address', async () => {
    site.page(
      '/handbook/heating',
      sitePage({
        title: 'Heating',
        sections: [{ heading: 'Radiators', text: 'Radiators are bled every October by the caretaker.' }],
      }),
    );
    const url = `http://127.0.0.1:${site.port}/handbook/heating`;
    const result = await ingest(`<${url}>`, '/handbook/heating');
    expect(result.text).toContain(':white_check_mark:');
    expect(site.requests.some((request) => request.path === '/handbook/heating')).toBe(true);

    const ts = await harness.mention('When are the radiators bled?');
    const [answer] = await harness.waitForReply(defaultChannel, ts);
    const text = answer ? blockText(answer) : '';
    expect(text).toContain('bled every October');
    expect(text).toContain(`<${url}|`);
  });
});
