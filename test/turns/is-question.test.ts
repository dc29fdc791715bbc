/** What auto-answer takes for a question: a question mark or a question word, and at least three words. */
import { describe, expect, it } from 'vitest';
import { isQuestion } from '../../src/turns/is-question.ts';

describe('isQuestion', () => {
  it.each([
    'How do I reset my password',
    'what is the deploy freeze?',
    'WHY does the build fail on main',
    'Can someone explain the retry policy',
    'The staging deploy fails with a 502, any idea?',
    'Is the VPN down for everyone?',
    'should we pin the node version',
    "what's the on-call rota this week",
    '<@U123> <@U456> how do I rotate the keys',
    '@dana, what is the SLA for P1?',
    '> where are the runbooks kept',
    '“Who owns the billing service?”',
    'is it down again? 🙏',
    'the nightly job failed (any idea why?)',
    'Anyone know where the budget sheet lives',
  ])('takes %j for a question', (text) => {
    expect(isQuestion(text)).toBe(true);
  });

  it.each([
    'thanks all',
    'lunch?',
    'why not?',
    'Deployed v2.3 to production',
    'Do not deploy today please',
    'I will be out on Friday.',
    'great, thanks for the help everyone',
    '',
    '   ???   ',
    '@dana @lee ?',
    'Heads up: the VPN is down. Use the backup.',
  ])('does not take %j for a question', (text) => {
    expect(isQuestion(text)).toBe(false);
  });

  it('judges a long message by its start and end, quickly', () => {
    const pasted = `Here is the log:\n${'x '.repeat(200_000)}\nwhat does it mean?`;
    expect(isQuestion(pasted)).toBe(true);
    expect(isQuestion(`${'a '.repeat(200_000)}done.`)).toBe(false);
  });
});
