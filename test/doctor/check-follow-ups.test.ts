/** Follow-ups need every reply's text: a platform that withholds it without a grant gets a warning (src/doctor/check-follow-ups.ts). */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkFollowUps } from '../../src/doctor/check-follow-ups.ts';

describe('the follow-ups check', () => {
  const grant = (on: boolean) => ({ setting: 'CHAT_READ_ALL', on, fix: ['Tick "Read all messages".'] });

  it('warns when follow-ups are on but the grant is off, with the platform fix and the way to say it is meant', () => {
    expect(checkFollowUps(loadConfig({}, { envFile: false }), 'Chat', grant(false))).toEqual([
      {
        title: 'Chat follow-ups',
        status: 'warn',
        detail:
          'CHAT_READ_ALL is off: in a thread, ragent answers only replies that mention it (mentions and DMs work)',
        fix: ['Tick "Read all messages".', 'Or set RAGENT_FOLLOW_UPS=off to say it is meant this way.'],
      },
    ]);
  });

  it('says nothing when the grant is on or follow-ups are off', () => {
    expect(checkFollowUps(loadConfig({}, { envFile: false }), 'Chat', grant(true))).toEqual([]);
    const noFollowUps = loadConfig({ RAGENT_FOLLOW_UPS: 'off' }, { envFile: false });
    expect(checkFollowUps(noFollowUps, 'Chat', grant(false))).toEqual([]);
  });
});
