/** CLI commands run in this process through the real program, with an environment and output of their own. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { runCli } from '../support/run-cli.ts';

let workDir: string;
let ollama: FakeOllama;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-cli-'));
  ollama = await startFakeOllama();
});
afterAll(async () => {
  await ollama.close();
  await rm(workDir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

async function run(args: string[], environment: Record<string, string> = {}) {
  const { code, text, thrown } = await runCli(args, {
    RAGENT_DATA_DIR: path.join(workDir, 'data'),
    OLLAMA_BASE_URL: ollama.url,
    ...environment,
  });
  if (thrown) throw thrown;
  return { code, text };
}

describe('ragent doctor (in process)', () => {
  it('--quiet prints only the problems', async () => {
    const { code, text } = await run(['doctor', '--quiet'], { OLLAMA_MODEL: 'not-pulled:3b' });
    expect(code).toBe(1);
    expect(text.trim().split('\n')).toEqual([
      expect.stringMatching(/^✗ Chat model +not-pulled:3b is not pulled$/),
      expect.stringContaining('→ Pull it: ollama pull not-pulled:3b'),
      expect.stringContaining('→ Or set OLLAMA_MODEL'),
      '',
      expect.stringMatching(/^1 problem to fix, \d warnings?\.$/),
    ]);
  });

  it('--quiet prints nothing and exits 0 when all is well', async () => {
    const { code, text } = await run(['doctor', '--quiet']);
    expect(code).toBe(0);
    expect(text).toBe('');
  });

  it('--json gives the report to scripts', async () => {
    const { code, text } = await run(['doctor', '--json'], { RAGENT_EMBEDDINGS: 'none' });
    expect(code).toBe(0);
    const report = JSON.parse(text) as { ok: boolean; results: Array<{ title: string; status: string }> };
    expect(report.ok).toBe(true);
    expect(report.results).toContainEqual(
      expect.objectContaining({ title: 'Embedding model', status: 'skip' }),
    );
  });
});

describe('ragent start (in process)', () => {
  it('names what is missing for a half-configured platform and exits 1', async () => {
    const token = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp';
    const { code, text } = await run(['start'], { SLACK_BOT_TOKEN: token });
    expect(code).toBe(1);
    expect(text).toContain('Half configured:');
    expect(text).toContain('SLACK_BOT_TOKEN is set, but neither SLACK_APP_TOKEN');
    expect(text).not.toContain(token);
  });
});
