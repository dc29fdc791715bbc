/** Required against granted, once for every platform (src/doctor/missing-grants.ts). */
import { describe, expect, it } from 'vitest';
import {
  type GrantKind,
  grantsCheck,
  logMissingGrants,
  missingGrants,
} from '../../src/doctor/missing-grants.ts';
import { createLogger } from '../../src/logger.ts';

const kind: GrantKind = {
  title: 'Chat app scopes',
  subject: 'the chat app',
  noun: 'scope',
  source: 'manifest.yml',
  required: [
    { name: 'read', enables: 'reading messages' },
    { name: 'write', enables: 'posting answers' },
    { name: 'files', enables: 'ingesting files' },
  ],
  fix: 'Update the app from manifest.yml.',
};

describe('missing grants', () => {
  it('lists the required grants not granted, in the required order, ignoring spaces', () => {
    expect(missingGrants(kind.required, [' write ', 'other']).map((grant) => grant.name)).toEqual([
      'read',
      'files',
    ]);
  });

  it("gives doctor's line: pass, a warning naming each missing grant and what it enables, or skip", () => {
    expect(grantsCheck(kind, ['read', 'write', 'files'])).toEqual({
      title: 'Chat app scopes',
      status: 'pass',
      detail: 'all 3 scopes of manifest.yml granted',
    });
    expect(grantsCheck(kind, ['read', 'write'])).toEqual({
      title: 'Chat app scopes',
      status: 'warn',
      detail: 'the chat app lacks 1 scope of manifest.yml: files',
      fix: ['files: ingesting files', 'Update the app from manifest.yml.'],
    });
    expect(grantsCheck(kind, ['files'])).toMatchObject({ detail: expect.stringContaining('lacks 2 scopes') });
    expect(grantsCheck(kind, undefined)).toMatchObject({ status: 'skip' });
  });

  it('logs once what the app cannot do, and nothing when all is granted or unknown', () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    logMissingGrants(logger, kind, ['read', 'write', 'files']);
    logMissingGrants(logger, kind, undefined);
    expect(lines).toEqual([]);
    logMissingGrants(logger, kind, ['read']);
    expect(lines).toEqual([
      expect.objectContaining({
        missingScopes: ['write', 'files'],
        disabled: ['write: posting answers', 'files: ingesting files'],
        msg: expect.stringContaining('the chat app lacks scopes of manifest.yml'),
      }),
    ]);
  });
});
