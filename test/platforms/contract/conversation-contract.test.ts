/**
 * The platform contract: what every chat platform must do in a conversation, written once and run
 * against Slack (HTTP and Socket Mode) and Discord through their wire fakes. Each negative check
 * ("not answered") is made after a barrier — a later mention answered — never after a sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordDriver } from './discord-driver.ts';
import { clarifyingQuestion, type DriverFactory, type PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

describe.each(platforms)('platform contract: conversations on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start();
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('answers a mention in a thread of its own', async () => {
    const thread = await driver.mention('How do while loops work?');
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toBeTruthy();
    expect(answer).not.toContain(clarifyingQuestion);
    expect(driver.questionsAsked()).toContain('How do while loops work?');
  });

  it('asks back when the question is unclear, and the reply in the thread resumes it', async () => {
    const thread = await driver.mention('How do I configure the thingy?');
    const [question] = await driver.replies(thread, 1);
    expect(question).toContain(clarifyingQuestion);
    // The reply carries no mention: the bot knows it converses in this thread.
    await driver.reply(thread, 'I mean the loop in the script');
    const [, answer] = await driver.replies(thread, 2);
    expect(answer).not.toContain(clarifyingQuestion);
    // The same conversation: the model saw the original question with the reply.
    expect(driver.questionsAsked().at(-1)).toContain('thingy');
  });

  it('answers a follow-up in its thread without a mention', async () => {
    const thread = await driver.mention('How do for loops work?');
    await driver.replies(thread, 1);
    await driver.reply(thread, 'And how do I break out of one?');
    const replies = await driver.replies(thread, 2);
    expect(replies).toHaveLength(2);
    expect(driver.questionsAsked()).toContain('And how do I break out of one?');
  });

  it('leaves people talking to each other in its thread alone, and never answers bots or edits', async () => {
    const thread = await driver.mention('What does the deploy freeze cover?');
    await driver.replies(thread, 1);
    await driver.reply(thread, 'can you check this with the team?', { mentionSomeoneElse: true });
    await driver.replyAsBot(thread, 'Build 42 passed: what does it change?');
    await driver.editInThread(thread, 'What does the deploy freeze cover, exactly?');
    await driver.barrier();
    expect(driver.repliesNow(thread)).toHaveLength(1);
    const asked = driver.questionsAsked().join('\n');
    expect(asked).not.toContain('check this with the team');
    expect(asked).not.toContain('Build 42');
    expect(asked).not.toContain('exactly?');
    // A mention in the same thread is still for the bot.
    await driver.mentionInThread(thread, 'and who decides about exceptions?');
    expect(await driver.replies(thread, 2)).toHaveLength(2);
  });

  it('ignores replies in threads it is not part of', async () => {
    const thread = await driver.foreignThread();
    await driver.reply(thread, 'a reply in somebody else’s thread');
    await driver.barrier();
    expect(driver.repliesNow(thread)).toEqual([]);
    expect(driver.questionsAsked()).not.toContain('a reply in somebody else’s thread');
  });

  it('answers a message once however often it is delivered', async () => {
    const thread = await driver.mention('How do until loops work?');
    await driver.replies(thread, 1);
    await driver.reply(thread, 'Only once, please: how do I nest them?');
    await driver.replies(thread, 2);
    await driver.redeliverLast(thread);
    await driver.barrier();
    expect(driver.repliesNow(thread)).toHaveLength(2);
    expect(driver.questionsAsked().filter((question) => question.includes('Only once, please'))).toHaveLength(
      1,
    );
  });
});

describe.each(platforms)('platform contract: RAGENT_FOLLOW_UPS=off on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start({ environment: { RAGENT_FOLLOW_UPS: 'off' } });
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('answers only mentions in its threads', async () => {
    const thread = await driver.mention('How do while loops work?');
    await driver.replies(thread, 1);
    await driver.reply(thread, 'And how do I stop one?');
    await driver.barrier();
    expect(driver.repliesNow(thread)).toHaveLength(1);
    expect(driver.questionsAsked()).not.toContain('And how do I stop one?');
    await driver.mentionInThread(thread, 'And how do I stop one, then?');
    expect(await driver.replies(thread, 2)).toHaveLength(2);
  });
});
