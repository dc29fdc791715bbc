/**
 * The platform contract for files attached to a question (without "ingest"): ragent reads them for
 * that thread alone, says so while it reads, answers from them citing them, and finds them again in
 * the thread's follow-ups — while another thread of the same channel and another channel never see
 * their text (checked in what the searches returned to the model, after each turn was answered). A
 * file it cannot read is said before the answer, which is still given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatScript, FakeChatRequest } from '../../fakes/fake-ollama.ts';
import { slackModel } from '../../slack/slack-model.ts';
import { roleOf } from '../../support/model-roles.ts';
import { discordDriver } from './discord-driver.ts';
import type { DriverFactory, PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';
import { toolMessages } from './tool-messages.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

const secret = 'The zebracorn crossing tariff is 42 credits per crossing.';
const tariffs = {
  name: 'zebra-tariffs.md',
  bytes: new TextEncoder().encode(`# Zebra tariffs\n\n${secret}\n`),
};
/** Bytes no reader takes: refused with the ingest's own clear message. */
const firmware = { name: 'firmware.bin', bytes: new Uint8Array([0, 1, 2, 3, 0xff, 0xfe, 0, 7]) };

/** The contract's model, quoting and citing whichever attached file the search returned. */
const fileModel: ChatScript = (request: FakeChatRequest, call) => {
  if (roleOf(request) !== 'orchestrator') return slackModel(request, call);
  const results = toolMessages(request);
  if (results.length === 0) return slackModel(request, call);
  const found = results.join('\n');
  if (!found.includes('zebracorn')) return { content: 'The documents do not say.' };
  return { content: `**From the documents:** ${secret}\n\nSources:\n- ${tariffs.name}` };
};

describe.each(platforms)('platform contract: files attached to a question on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start({ model: fileModel });
  });
  afterAll(async () => {
    await driver?.close();
  });

  /** What the searches of the turns since `from` returned. */
  const resultsSince = (from: number) => driver.toolResults().slice(from).join('\n');

  it('reads the file for its thread, answers from it citing it, and finds it again in a follow-up', async () => {
    const thread = await driver.mentionWithFile('What is the zebracorn crossing tariff?', [tariffs]);
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toContain('42 credits');
    expect(answer).toContain(tariffs.name);
    expect(driver.shownTexts().some((text) => text.includes(`Reading ${tariffs.name}…`))).toBe(true);

    const before = driver.toolResults().length;
    await driver.reply(thread, 'And the zebracorn tariff for a return crossing?');
    const [, followUp] = await driver.replies(thread, 2);
    expect(resultsSince(before)).toContain('42 credits');
    expect(followUp).toContain('42 credits');
  });

  it('never lets another thread of the channel, or another channel, find the file', async () => {
    const thread = await driver.mentionWithFile('What does a zebracorn crossing cost?', [tariffs]);
    await driver.replies(thread, 1);

    const before = driver.toolResults().length;
    const sameChannel = await driver.mention('What is the zebracorn crossing tariff?');
    const [elsewhere] = await driver.replies(sameChannel, 1);
    const otherChannel = await driver.mentionInOtherChannel('What is the zebracorn crossing tariff?');
    const [farther] = await driver.replies(otherChannel, 1);
    const searched = resultsSince(before);
    // Both turns searched (and were answered) without the file's text.
    expect(searched).not.toBe('');
    expect(searched).not.toContain('zebracorn');
    expect(elsewhere).not.toContain('42 credits');
    expect(farther).not.toContain('42 credits');
  });

  it('says which file it could not read and still answers the question', async () => {
    const thread = await driver.mentionWithFile('What is the zebracorn crossing tariff, per the firmware?', [
      firmware,
    ]);
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toContain(`I could not read ${firmware.name}`);
    expect(answer).toContain('not a file type ragent reads');
    expect(answer).toContain("answered from the channel's documents without it");
    expect(answer).not.toContain('42 credits');
  });
});
