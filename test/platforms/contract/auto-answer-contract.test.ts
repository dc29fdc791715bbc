/**
 * The platform contract for auto-answer (`/ragent autoanswer on|off`): once an admin turns it on, a
 * person's top-level question in the channel is answered in a thread of its own without a mention;
 * chatter, short messages and messages addressed to someone else are left alone; a burst is answered
 * once per question; off stops it. Every "not answered" is checked after a barrier — a later question
 * or mention whose answer was awaited — never after a sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordDriver } from './discord-driver.ts';
import type { DriverFactory, PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

describe.each(platforms)('platform contract: auto-answer on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start();
  });
  afterAll(async () => {
    await driver?.close();
  });
  const asked = (text: string) => driver.questionsAsked().filter((question) => question.includes(text));

  it('answers no top-level question while off, and refuses a member who may not turn it on, only to them', async () => {
    const before = await driver.postTopLevel('How do while loops work?');
    const refusal = await driver.setAutoAnswer(true, { admin: false });
    expect(refusal.text).toMatch(/Only .+ can turn auto-answer on or off/);
    expect(refusal.onlyToThem).toBe(true);
    const after = await driver.postTopLevel('How do while loops end?');
    await driver.barrier();
    expect(driver.repliesNow(before)).toEqual([]);
    expect(driver.repliesNow(after)).toEqual([]);
    expect(asked('How do while loops')).toEqual([]);
    const help = await driver.command('help');
    expect(help.text).toContain('Auto-answer: off');
    expect(help.onlyToThem).toBe(true);
  });

  it('once an admin turns it on, answers a top-level question in its own thread without a mention', async () => {
    const reply = await driver.setAutoAnswer(true);
    expect(reply.text).toMatch(/Auto-answer is on in .+: I answer questions posted there in a thread/);
    expect(reply.onlyToThem).toBe(true);
    const thread = await driver.postTopLevel('How do for loops work?');
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toBeTruthy();
    expect(asked('How do for loops work?')).toHaveLength(1);
    expect((await driver.command('docs')).text).toContain('Auto-answer: on');
    expect((await driver.command('help')).text).toContain('Auto-answer: on');
  });

  it('leaves chatter, short messages and messages addressed to someone else alone', async () => {
    const thanks = await driver.postTopLevel('thanks all');
    const lunch = await driver.postTopLevel('lunch?');
    const forDana = await driver.postTopLevel('what is the deploy freeze?', { mentionSomeoneElse: true });
    const statement = await driver.postTopLevel('Deployed the new build to staging.');
    // The barrier: a later question in the same channel, answered.
    const question = await driver.postTopLevel('Which loops does the script use?');
    await driver.replies(question, 1);
    for (const thread of [thanks, lunch, forDana, statement]) expect(driver.repliesNow(thread)).toEqual([]);
    const questions = driver.questionsAsked().join('\n');
    for (const text of ['thanks all', 'lunch?', 'deploy freeze', 'Deployed the new build'])
      expect(questions).not.toContain(text);
  });

  it('answers a burst of questions each once, in their own threads, and a redelivery not again', async () => {
    const questions = [1, 2, 3, 4, 5].map((n) => `Burst question ${n}: how do loops nest?`);
    const threads = await Promise.all(questions.map((text) => driver.postTopLevel(text)));
    for (const thread of threads) expect(await driver.replies(thread, 1)).toHaveLength(1);
    await driver.redeliverLast(threads[0]!);
    await driver.barrier();
    for (const [index, thread] of threads.entries()) {
      expect(driver.repliesNow(thread)).toHaveLength(1);
      expect(asked(`Burst question ${index + 1}:`)).toHaveLength(1);
    }
  });

  it('answers nothing unasked once turned off', async () => {
    expect((await driver.setAutoAnswer(false)).text).toMatch(
      /Auto-answer is off in .+: I answer only when mentioned/,
    );
    const thread = await driver.postTopLevel('How do loops stop?');
    await driver.barrier();
    expect(driver.repliesNow(thread)).toEqual([]);
    expect(asked('How do loops stop?')).toEqual([]);
    expect((await driver.command('help')).text).toContain('Auto-answer: off');
  });
});
