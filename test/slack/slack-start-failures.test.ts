/** Starting Slack: a network failure is told apart from a wrong token. */
import { afterEach, describe, expect, it } from 'vitest';
import { startSlack } from '../../src/platforms/slack/start-slack.ts';
import { type FakeSlackApi, startFakeSlackApi } from '../fakes/fake-slack-api.ts';
import { closedPort } from '../support/free-port.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';

describe('Slack: starting', () => {
  let services: TestServices | undefined;
  let slack: FakeSlackApi | undefined;
  afterEach(async () => {
    await services?.dispose();
    await slack?.close();
    services = undefined;
    slack = undefined;
  });

  it('says NETWORK_UNREACHABLE, with the cause, when nothing answers at the Slack API', async () => {
    const port = await closedPort();
    services = await createTestServices({
      ollamaUrl: 'http://127.0.0.1:9',
      environment: {
        SLACK_BOT_TOKEN: 'xoxb-fake-bot-token-0001',
        SLACK_APP_TOKEN: 'xapp-fake-app-token-0001',
        SLACK_API_URL: `http://127.0.0.1:${port}/api/`,
      },
    });
    await expect(startSlack(services)).rejects.toMatchObject({
      code: 'NETWORK_UNREACHABLE',
      message: expect.stringContaining('connection refused'),
      details: { networkCode: 'ECONNREFUSED' },
    });
  });

  it('keeps CONFIG_INVALID for a token Slack refuses', async () => {
    slack = await startFakeSlackApi();
    services = await createTestServices({
      ollamaUrl: 'http://127.0.0.1:9',
      environment: {
        SLACK_BOT_TOKEN: 'xoxb-wrong-token-0001',
        SLACK_APP_TOKEN: slack.appToken,
        SLACK_API_URL: slack.apiUrl,
      },
    });
    await expect(startSlack(services)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('invalid_auth'),
    });
  });
});
