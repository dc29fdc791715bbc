/**
 * The platform contract for joining a thread: mentioned in a thread it was not part of, the bot
 * reads what was said before (attributed by display name, newest last, capped by
 * RAGENT_THREAD_CONTEXT_MESSAGES and RAGENT_THREAD_CONTEXT_TOKENS, the question never cut), answers
 * a question about the thread from the thread (cited as the thread, no document search), never
 * pings anyone the thread mentions, and still answers when the thread cannot be read. Run against
 * Slack (HTTP and Socket Mode) and Discord through their wire fakes; what the model received is read
 * from the fake model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordDriver } from './discord-driver.ts';
import type { DriverFactory, PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

/** A broadcast mention that is not broken by an invisible joiner: it would ping. */
const livePing = /[@＠](everyone|here|channel)\b/i;

describe.each(platforms)('platform contract: joining a thread on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start();
  });
  afterAll(async () => {
    await driver?.close();
  });

  /** The rewrite request of the turn whose question contains `question`. */
  const rewriteOf = (question: string) =>
    driver
      .modelCalls()
      .filter((request) => request.role === 'rewrite')
      .find((request) => request.text.includes(question))?.text ?? '';

  it('reads the thread it is mentioned in: earlier messages by name, oldest first, before the question', async () => {
    const thread = await driver.threadWithHistory([
      { author: 'Priya', text: 'The nightly deploy failed with error E42 again' },
      { author: 'Marco', text: 'Same here, since the loop change' },
    ]);
    await driver.mentionInThread(thread, 'what does the error above mean?');
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toBeTruthy();
    const prompt = rewriteOf('what does the error above mean?');
    const priya = prompt.indexOf('Priya: The nightly deploy failed with error E42 again');
    const marco = prompt.indexOf('Marco: Same here, since the loop change');
    expect(priya).toBeGreaterThanOrEqual(0);
    expect(marco).toBeGreaterThan(priya);
    expect(prompt.indexOf('what does the error above mean?')).toBeGreaterThan(marco);
  });

  it('answers a question about the thread from the thread, cited as the thread, without searching', async () => {
    const thread = await driver.threadWithHistory([
      { author: 'Ana', text: 'Shall we ship on Friday?' },
      { author: 'Ben', text: 'Yes, decided: Friday.' },
    ]);
    const searchesBefore = driver.modelCalls().filter((request) => request.role === 'orchestrator').length;
    await driver.mentionInThread(thread, 'summarise this thread please');
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toContain('Ben: Yes, decided: Friday.');
    expect(answer).toContain('this thread');
    const searchesAfter = driver.modelCalls().filter((request) => request.role === 'orchestrator').length;
    expect(searchesAfter).toBe(searchesBefore);
  });

  it('never pings anyone the thread mentions, even when the answer repeats it', async () => {
    const thread = await driver.threadWithHistory([
      { author: 'Chris', text: 'look at this outage', pingEveryone: true },
      { author: 'Chris', text: 'can you take it?', mentionSomeone: true },
    ]);
    await driver.mentionInThread(thread, 'summarise this thread for me');
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toContain('look at this outage');
    // The model saw no mention syntax and no live broadcast mention.
    const prompt = rewriteOf('summarise this thread for me');
    expect(prompt).toContain('Chris:');
    expect(prompt).not.toContain(driver.someoneElseMention);
    expect(prompt).not.toMatch(livePing);
    expect(prompt).toContain('@Dana');
    // Nothing the bot sent carries a mention that would ping.
    const shown = driver.shownTexts().join('\n');
    expect(shown).toContain('look at this outage');
    expect(shown).not.toContain(driver.someoneElseMention);
    expect(shown).not.toMatch(livePing);
  });

  it('still answers when the thread cannot be read', async () => {
    const thread = await driver.threadWithHistory([{ author: 'Dee', text: 'Secret plans in here' }]);
    driver.failNextThreadRead();
    await driver.mentionInThread(thread, 'How do while loops work, then?');
    const [answer] = await driver.replies(thread, 1);
    expect(answer).toBeTruthy();
    expect(rewriteOf('How do while loops work, then?')).not.toContain('Secret plans');
  });

  it('reads the thread once: a follow-up after joining does not read it again', async () => {
    const thread = await driver.threadWithHistory([{ author: 'Eve', text: 'Which shell do we use?' }]);
    await driver.mentionInThread(thread, 'How do for loops work here?');
    await driver.replies(thread, 1);
    await driver.reply(thread, 'And until loops?');
    await driver.replies(thread, 2);
    const prompt = rewriteOf('And until loops?');
    // The thread stays part of the conversation (kept by the graph), not read twice.
    expect(prompt.match(/Eve: Which shell do we use\?/g)).toHaveLength(1);
  });
});

describe.each(platforms)('platform contract: a thread held to its limits on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start({
      environment: { RAGENT_THREAD_CONTEXT_MESSAGES: '3', RAGENT_THREAD_CONTEXT_TOKENS: '40' },
    });
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('keeps the newest messages within the message cap and the token budget, and the whole question', async () => {
    const long = `the old build log ${'step ok '.repeat(60)}end of log`;
    const thread = await driver.threadWithHistory([
      { author: 'Gus', text: 'first message beyond the cap' },
      { author: 'Gus', text: 'second message beyond the cap' },
      { author: 'Hal', text: long },
      { author: 'Ivy', text: 'newer one' },
      { author: 'Jo', text: 'newest one' },
    ]);
    // Longer than the whole budget on its own: the question is never cut.
    const question = `How do while loops work? ${'Please explain every detail of it. '.repeat(8)}`.trim();
    await driver.mentionInThread(thread, question);
    await driver.replies(thread, 1);
    const prompt =
      driver
        .modelCalls()
        .filter((request) => request.role === 'rewrite')
        .find((request) => request.text.includes('Jo: newest one'))?.text ?? '';
    expect(prompt).toContain('Ivy: newer one');
    expect(prompt).toContain('Jo: newest one');
    expect(prompt).not.toContain('beyond the cap');
    expect(prompt).not.toContain('the old build log');
    expect(prompt).toContain('older message of the thread not shown');
    expect(prompt).toContain(question);
  });
});
