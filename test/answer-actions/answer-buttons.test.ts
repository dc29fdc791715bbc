import { describe, expect, it } from 'vitest';
import {
  actionValue,
  answerActionNames,
  answerButtons,
  buttonRowsUnderAnswer,
  isVote,
  parseActionValue,
  parseAnswerActionName,
  reasonButtons,
} from '../../src/answer-actions/answer-buttons.ts';

describe('the buttons on an answer, described once', () => {
  it('offers Verify and Ask a person, and once verified shows who did it, no longer pressable', () => {
    expect(answerButtons('v')).toEqual([
      { action: 'verify', label: 'Verify', style: 'secondary', value: 'v' },
      { action: 'ask-person', label: 'Ask a person', style: 'secondary', value: 'v' },
    ]);
    expect(answerButtons('v', 'ada')[0]).toEqual({
      action: 'verify',
      label: '✅ Verified by ada',
      style: 'success',
      value: 'v',
      disabled: true,
    });
  });

  it('puts 👍/👎 first under an answer, then the other buttons, all carrying the same value', () => {
    const [votes, others] = buttonRowsUnderAnswer('v', 'ada');
    expect(votes).toEqual([
      { action: 'vote:up', label: '👍', description: 'Helpful', style: 'secondary', value: 'v' },
      { action: 'vote:down', label: '👎', description: 'Not helpful', style: 'secondary', value: 'v' },
    ]);
    expect(others).toEqual(answerButtons('v', 'ada'));
    expect([...votes, ...others].map((button) => isVote(button.action))).toEqual([true, true, false, false]);
  });

  it('offers every 👎 reason, each an action the buttons can ask for', () => {
    const reasons = reasonButtons('v');
    expect(reasons.map((button) => button.action)).toEqual([
      'reason:wrong',
      'reason:outdated',
      'reason:incomplete',
      'reason:not-what-i-asked',
      'reason:other',
    ]);
    expect(reasons.at(-1)?.label).toBe('Other…');
    for (const button of [...reasons, ...answerButtons('v')])
      expect(answerActionNames).toContain(parseAnswerActionName(button.action));
  });

  it('reads back only what it wrote: the thread and answer ids, with a vote where one was put', () => {
    const ids = { threadId: 'chat:W1:C1:1', answerId: 'a1' };
    expect(parseActionValue(actionValue(ids))).toEqual({ ...ids, vote: undefined });
    expect(parseActionValue(JSON.stringify({ ...ids, vote: 'down' }))?.vote).toBe('down');
    for (const bad of [
      undefined,
      '',
      'not json',
      '{"threadId":1,"answerId":"a"}',
      '{"threadId":"t","answerId":""}',
    ])
      expect(parseActionValue(bad)).toBeUndefined();
  });

  it('knows the action names and nothing else', () => {
    expect(parseAnswerActionName('reason:outdated')).toBe('reason:outdated');
    expect(parseAnswerActionName('ask-person')).toBe('ask-person');
    for (const unknown of ['reason:bogus', 'reason:', 'vote', 'verify ', 'askperson'])
      expect(parseAnswerActionName(unknown)).toBeUndefined();
  });
});
