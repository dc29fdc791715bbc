/** A platform's connection failure as the error that says what to fix (src/platforms/connect-failure.ts). */
import { describe, expect, it } from 'vitest';
import { RagentError } from '../../src/errors.ts';
import { connectFailure } from '../../src/platforms/connect-failure.ts';

const words = {
  network: (reason: string) => `network: ${reason}`,
  other: (reason: string) => `setting: ${reason}`,
};
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

describe('connectFailure', () => {
  it('says NETWORK_UNREACHABLE with the reason and cause when the network did not carry the call', () => {
    const error = connectFailure(refused, words);
    expect(error).toMatchObject({ code: 'NETWORK_UNREACHABLE', cause: refused });
    expect(error.message).toMatch(/^network: /);
    expect(error.details).toMatchObject({ networkCode: 'ECONNREFUSED' });
  });

  it('makes anything else a setting to fix, and a network failure too where the platform says so', () => {
    expect(connectFailure(new Error('An invalid token was provided.'), words)).toMatchObject({
      code: 'CONFIG_INVALID',
      message: 'setting: An invalid token was provided.',
    });
    expect(connectFailure(refused, { other: words.other })).toMatchObject({ code: 'CONFIG_INVALID' });
  });

  it('keeps an error of ours as it is (a store failing says what to fix itself)', () => {
    const ours = new RagentError('DISK_FULL', 'the disk is full');
    expect(connectFailure(ours, words)).toBe(ours);
  });
});
