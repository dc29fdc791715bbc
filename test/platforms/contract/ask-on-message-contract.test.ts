/**
 * The platform contract for "Ask ragent" on an existing message (Slack's message shortcut,
 * Discord's message command): the message's text is answered in its thread, chosen twice it is
 * answered once, and in a thread ragent is not part of, the thread is read first. Negative checks
 * are made after a barrier, never after a sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askOwnMessageText } from '../../../src/turns/messages-en.ts';
import { discordDriver } from './discord-driver.ts';
import type { DriverFactory, PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

describe.each(platforms)('platform contract: "Ask ragent" on a message on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start();
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('answers the message in its thread, once however often it is asked', async () => {
    const thread = await driver.askOnNewMessage('How do case statements work?');
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toBeTruthy();
    expect(driver.questionsAsked()).toContain('How do case statements work?');
    await driver.askOnLatest(thread);
    await driver.barrier();
    expect(driver.repliesNow(thread)).toHaveLength(1);
    expect(
      driver.questionsAsked().filter((question) => question === 'How do case statements work?'),
    ).toHaveLength(1);
  });

  it('reads the thread first when asked on a reply in a thread it is not part of', async () => {
    const thread = await driver.threadWithHistory([
      { author: 'Kim', text: 'We use bash 5 on the build hosts' },
      { author: 'Lou', text: 'How do I loop over the files there?' },
    ]);
    await driver.askOnLatest(thread);
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toBeTruthy();
    const prompt =
      driver
        .modelCalls()
        .filter((request) => request.role === 'rewrite')
        .find((request) => request.text.includes('User message:\nHow do I loop over the files there?'))
        ?.text ?? '';
    expect(prompt).toContain('Kim: We use bash 5 on the build hosts');
    // The question is the message asked on, not part of the context before it.
    expect(prompt).not.toContain('Lou: How do I loop over the files there?');
  });

  it('does not answer its own message: only the asker is told, the thread gets nothing', async () => {
    const thread = await driver.askOnNewMessage('How do until loops work?');
    await driver.replies(thread, 1);
    expect(await driver.askOnBotReply(thread)).toBe(askOwnMessageText);
    await driver.barrier();
    expect(driver.repliesNow(thread)).toHaveLength(1);
  });

  it('is answered as a follow-up conversation afterwards: the thread is the bot’s now', async () => {
    const thread = await driver.askOnNewMessage('How do select loops work?');
    await driver.replies(thread, 1);
    await driver.reply(thread, 'And how do I leave one?');
    expect(await driver.replies(thread, 2)).toHaveLength(2);
    expect(driver.questionsAsked()).toContain('And how do I leave one?');
  });
});
