/** Required against granted, once for every platform (src/doctor/missing-grants.ts). */
import { describe, expect, it } from 'vitest';
import {
  checkGrantsOnline,
  type GrantKind,
  grantsCheck,
  logMissingGrants,
  missingGrants,
} from '../../src/doctor/missing-grants.ts';
import type { PlatformApi } from '../../src/doctor/platform-api.ts';
import { createLogger } from '../../src/logger.ts';
import { startSmallServer } from '../foundation/small-http-server.ts';
import { closedPort } from '../support/free-port.ts';

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

  it("asks the platform's API with the bot token: compares what it says, fails a refused token, warns when it cannot ask", async () => {
    const server = await startSmallServer((request, response) => {
      const refused = request.headers.authorization !== 'Bearer good-token';
      response.writeHead(200, { 'content-type': 'application/json', 'x-granted': 'read, write' });
      response.end(JSON.stringify(refused ? { ok: false, error: 'invalid_auth' } : { ok: true }));
    });
    const api = (authorization: string, base = `${server.url}/api`): PlatformApi => ({
      label: 'Chat',
      base,
      baseVariable: 'CHAT_API_URL',
      tokenVariable: 'CHAT_TOKEN',
      authorization,
      timeoutMs: 2_000,
    });
    const check = (authorization: string, base?: string) =>
      checkGrantsOnline(api(authorization, base), kind, async (ask) => {
        const answer = await ask('auth.test', {});
        const body = answer.body as { ok: boolean; error?: string };
        if (!body.ok) return { refused: body.error ?? '', fix: 'Copy the token again.' };
        return { granted: answer.headers?.get('x-granted')?.split(',') };
      });
    try {
      expect(await check('Bearer good-token')).toMatchObject({
        title: 'Chat app scopes',
        status: 'warn',
        detail: 'the chat app lacks 1 scope of manifest.yml: files',
      });
      expect(server.requests).toEqual([expect.objectContaining({ method: 'POST', path: '/api/auth.test' })]);
      expect(await check('Bearer revoked')).toEqual({
        title: 'Chat app scopes',
        status: 'fail',
        detail: 'Chat refused CHAT_TOKEN (invalid_auth)',
        fix: ['Copy the token again.'],
      });
      expect(await check('Bearer good-token', `http://127.0.0.1:${await closedPort()}/api/`)).toEqual({
        title: 'Chat app scopes',
        status: 'warn',
        detail: expect.stringMatching(/^could not ask Chat which scopes the app has \(.+\)$/),
        fix: ['Check the network (and CHAT_API_URL if set), then run ragent doctor again.'],
      });
    } finally {
      await server.close();
    }
  });
});
