/** `ragent doctor` asks Slack whether RAGENT_HANDOFF_SLACK names a user group (or person) that exists. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkPlatformsOnline } from '../../src/platforms/check-platforms.ts';
import { type FakeSlackApi, startFakeSlackApi } from '../fakes/fake-slack-api.ts';

describe('doctor: the Slack hand-off target', () => {
  let slack: FakeSlackApi;
  beforeAll(async () => {
    slack = await startFakeSlackApi();
  });
  afterAll(async () => {
    await slack?.close();
  });

  /** Doctor's online checks of the hand-off target (the granted scopes are checked apart). */
  const check = async (target: string) =>
    (
      await checkPlatformsOnline(
        loadConfig(
          {
            SLACK_BOT_TOKEN: slack.botToken,
            SLACK_SIGNING_SECRET: '0123456789abcdef0123456789abcdef',
            SLACK_API_URL: slack.apiUrl,
            RAGENT_HANDOFF_SLACK: target,
          },
          { envFile: false },
        ),
        2_000,
      )
    ).filter((result) => result.title === 'Slack hand-off');

  it('warns when the user group does not exist, passes once it does', async () => {
    const [missing] = await check('S0SUPPORT');
    expect(missing).toMatchObject({ title: 'Slack hand-off', status: 'warn' });
    expect(missing?.detail).toContain('no such user group');
    slack.addUserGroup({ id: 'S0SUPPORT', handle: 'support' });
    expect(await check('S0SUPPORT')).toEqual([
      expect.objectContaining({ status: 'pass', detail: 'user group @support exists' }),
    ]);
    // The bot token went to the fake Slack only, as a bearer token.
    expect(slack.callsTo('usergroups.list').every((call) => call.token === slack.botToken)).toBe(true);
  });

  it('says the usergroups:read scope is missing instead of guessing', async () => {
    slack.setUserGroupsReadable(false);
    const [result] = await check('S0SUPPORT');
    slack.setUserGroupsReadable(true);
    expect(result?.status).toBe('warn');
    expect(result?.detail).toContain('usergroups:read');
    expect(result?.fix?.join(' ')).toContain('usergroups:read');
  });

  it('checks a person by user id', async () => {
    expect((await check('U0NOBODY'))[0]).toMatchObject({ status: 'warn' });
    slack.addUser({ id: 'U0ONCALL', name: 'oncall' });
    expect((await check('U0ONCALL'))[0]).toMatchObject({ status: 'pass' });
  });
});
