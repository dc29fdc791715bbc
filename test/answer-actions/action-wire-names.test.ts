/**
 * The answer buttons' wire names from one table: each platform's spelling gives exactly the ids that
 * answers already posted carry, and an id that carries an answer reads back to its action and answer.
 */
import { describe, expect, it } from 'vitest';
import {
  everyAction,
  readWireIdOfAnswer,
  wireIdOfAnswer,
  wireName,
} from '../../src/answer-actions/action-wire-names.ts';

const underscores = { separator: '_', askPerson: 'ask_person' };
const colons = { separator: ':', askPerson: 'askperson' };

describe('the wire names of the answer buttons', () => {
  it('spells every action as answers already in channels carry it', () => {
    expect(everyAction.map((action) => wireName(action, underscores))).toEqual([
      'ragent_feedback_up',
      'ragent_feedback_down',
      'ragent_verify',
      'ragent_ask_person',
      'ragent_reason_wrong',
      'ragent_reason_outdated',
      'ragent_reason_incomplete',
      'ragent_reason_not-what-i-asked',
      'ragent_reason_other',
    ]);
    expect(everyAction.map((action) => wireIdOfAnswer(action, 'a1', colons))).toEqual([
      'ragent:feedback:up:a1',
      'ragent:feedback:down:a1',
      'ragent:verify:a1',
      'ragent:askperson:a1',
      'ragent:reason:wrong:a1',
      'ragent:reason:outdated:a1',
      'ragent:reason:incomplete:a1',
      'ragent:reason:not-what-i-asked:a1',
      'ragent:reason:other:a1',
    ]);
  });

  it('spells Share, under a private answer, as the ids already posted carry it', () => {
    expect(wireName('share', underscores)).toBe('ragent_share');
    expect(wireIdOfAnswer('share', 'a1', colons)).toBe('ragent:share:a1');
    expect(wireIdOfAnswer('share', '', colons)).toBe('ragent:share:');
    // No answer action: a Share id never reads back as one.
    expect(readWireIdOfAnswer('ragent:share:a1', colons)).toBeUndefined();
  });

  it('reads an id back to its action and answer, and nothing else', () => {
    for (const action of everyAction)
      expect(readWireIdOfAnswer(wireIdOfAnswer(action, 'a:1', colons), colons)).toEqual({
        action,
        answerId: 'a:1',
      });
    for (const other of [
      'ragent:feedback:up:',
      'ragent:feedback:a1',
      'ragent:reasonmodal:a1',
      'share:a1',
      '',
    ])
      expect(readWireIdOfAnswer(other, colons)).toBeUndefined();
  });
});
