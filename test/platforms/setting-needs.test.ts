/** Whether a platform's settings are complete, once for every platform (src/platforms/setting-needs.ts). */
import { describe, expect, it } from 'vitest';
import {
  checkSettings,
  requireSettings,
  type SettingNeeds,
  settingsPlan,
} from '../../src/platforms/setting-needs.ts';

const needs = (values: { token?: string; socket?: string; http?: string; id?: string }): SettingNeeds => ({
  label: 'Chat',
  needs: [
    { variables: { CHAT_TOKEN: values.token }, fix: ['Copy the token.'] },
    { variables: { CHAT_SOCKET: values.socket, CHAT_SECRET: values.http }, fix: ['Set one.'] },
  ],
  optional: { CHAT_ID: values.id },
});
const complete = () => [{ title: 'Chat', status: 'pass' as const, detail: 'looks right' }];

describe('setting needs', () => {
  it('starts when every need is met by one of its variables; nothing set is simply not used', () => {
    expect(settingsPlan(needs({ token: 't', http: 's' }))).toEqual({ start: true });
    expect(settingsPlan(needs({}))).toEqual({ start: false });
    expect(checkSettings(needs({}), complete)).toEqual([]);
    expect(checkSettings(needs({ token: 't', socket: 's' }), complete)).toEqual(complete());
  });

  it('says what is set and which need is unmet, for start and for doctor with the fix', () => {
    expect(settingsPlan(needs({ token: 't' }))).toEqual({
      start: false,
      incomplete: 'Chat: CHAT_TOKEN is set, but neither CHAT_SOCKET nor CHAT_SECRET is.',
    });
    expect(checkSettings(needs({ socket: 's', id: 'i' }), complete)).toEqual([
      {
        title: 'Chat',
        status: 'fail',
        detail: 'CHAT_SOCKET and CHAT_ID are set but CHAT_TOKEN is not',
        fix: ['Copy the token.'],
      },
    ]);
    // An optional variable alone shows the platform is meant to be used.
    expect(settingsPlan(needs({ id: 'i' }))).toMatchObject({
      start: false,
      incomplete: expect.stringContaining('CHAT_ID is set'),
    });
  });
});

describe('requireSettings', () => {
  it('refuses to start with the first unmet need, its fix, and nothing when complete', () => {
    expect(() => requireSettings(needs({ token: 't', socket: 's' }))).not.toThrow();
    expect(() => requireSettings(needs({ token: 't' }))).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: 'Chat cannot start: neither CHAT_SOCKET nor CHAT_SECRET is set. Set one.',
      }),
    );
  });
});
