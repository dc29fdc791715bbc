import { describe, expect, it } from 'vitest';
import { RagentError } from '../../src/errors.ts';
import { createLogger, createScrubber } from '../../src/logger.ts';

const secret = 'sekret-value-9f8e7d6c';
const slackToken = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
const appToken = 'xapp-1-A0123456789-1234567890123-0123456789abcdef';
const discordToken = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';

function memoryLogger(secrets: string[] = [secret]) {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'trace',
    secrets,
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { logger, output: () => lines.join(''), records: () => lines.map((line) => JSON.parse(line)) };
}

describe('logger', () => {
  it('writes structured JSON lines at the chosen level', () => {
    const { logger, records } = memoryLogger();
    logger.info({ documents: 3 }, 'ingested');
    logger.debug('details');
    expect(records()).toMatchObject([
      { level: 30, app: 'ragent', documents: 3, msg: 'ingested' },
      { level: 20, msg: 'details' },
    ]);
  });

  it('stays quiet when silent', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'silent',
      destination: { write: (line: string) => void lines.push(line) },
    });
    logger.error('nothing');
    expect(lines).toEqual([]);
  });

  it('redacts secrets by key, at the top level and one level down', () => {
    const { logger, output } = memoryLogger([]);
    logger.info(
      {
        token: 'plain-token-value-1',
        apiKey: 'plain-api-key-value-2',
        slack: { botToken: 'plain-bot-token-3', signingSecret: 'plain-signing-secret-4' },
        headers: { authorization: 'Basic cGxhaW4tYXV0aA==' },
      },
      'connecting',
    );
    const text = output();
    for (const value of [
      'plain-token-value-1',
      'plain-api-key-value-2',
      'plain-bot-token-3',
      'plain-signing-secret-4',
      'cGxhaW4tYXV0aA==',
    ]) {
      expect(text).not.toContain(value);
    }
    expect(text).toContain('[redacted]');
    expect(text).toContain('connecting');
  });

  it('removes configured secrets wherever they appear in messages and fields', () => {
    const { logger, output } = memoryLogger();
    logger.info(`calling the API with ${secret}`);
    logger.warn(
      { request: { url: `https://example.test/?key=${secret}`, deep: { deeper: [secret] } } },
      'retry',
    );
    logger.info('formatted %s', secret);
    const text = output();
    expect(text).not.toContain(secret);
    expect(text).toContain('calling the API with [redacted]');
  });

  it('removes secrets from errors, their stacks and their causes', () => {
    const { logger, output } = memoryLogger();
    const cause = new Error(`socket closed for ${secret}`);
    const error = new Error(`login failed with ${secret}`, { cause });
    logger.error({ err: error }, 'slack failed');
    logger.error(error);
    logger.error(
      { err: new Error('wrapped', { cause: { token: secret, detail: `inner ${secret}` } }) },
      'odd cause',
    );
    const text = output();
    expect(text).not.toContain(secret);
    expect(text).toContain('login failed with [redacted]');
    expect(text).toContain('socket closed for [redacted]');
  });

  it('keeps the type, code and details of a typed error', () => {
    const { logger, records } = memoryLogger();
    const error = new RagentError('OLLAMA_FAILED', `model failed for ${secret}`, {
      details: { model: 'granite' },
    });
    logger.error({ err: error }, 'turn failed');
    expect(records()[0]?.err).toMatchObject({
      type: 'RagentError',
      code: 'OLLAMA_FAILED',
      message: 'model failed for [redacted]',
      details: { model: 'granite' },
    });
  });

  it('removes anything shaped like a Slack or Discord token even when not configured', () => {
    const { logger, output } = memoryLogger([]);
    logger.info(`bot ${slackToken} app ${appToken}`);
    logger.info({ header: `Bot ${discordToken}` }, 'discord');
    logger.error({ err: new Error(`invalid_auth for ${discordToken}`) }, 'failed');
    const text = output();
    for (const value of [slackToken, appToken, discordToken, 'AbCdEfGhIjKlMnOpQrStUvWx']) {
      expect(text).not.toContain(value);
    }
  });

  it('removes interaction and webhook tokens from URLs (they let anyone reply as the bot)', () => {
    const { logger, output } = memoryLogger([]);
    const interactionToken = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OkV4YW1wbGVUb2tlbg';
    logger.warn(
      {
        error: new Error(
          `404 on PATCH https://discord.com/api/v10/webhooks/123456789012345678/${interactionToken}/messages/@original`,
        ),
      },
      'could not edit the ingest reply',
    );
    logger.warn(`POST /api/v10/interactions/223456789012345678/${interactionToken}/callback failed`);
    const text = output();
    expect(text).not.toContain(interactionToken);
    expect(text).toContain('/webhooks/123456789012345678/[redacted]/messages/@original');
    expect(text).toContain('/interactions/223456789012345678/[redacted]/callback');
    const scrub = createScrubber([]);
    expect(scrub('POST https://hooks.slack.com/commands/T0001/1234567890/AbCdEfGhIjKlMnOpQrStUvWx')).toBe(
      'POST https://hooks.slack.com/commands/T0001/1234567890/[redacted]',
    );
  });

  it('scrubs plain text for other outputs', () => {
    const scrub = createScrubber([secret]);
    expect(scrub(`a ${secret} b ${slackToken}`)).toBe('a [redacted] b [redacted]');
  });
});
