/** The docs and deployment files stay true to the code: every variable documented, the commands real. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseDotenv } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.ts';
import { configVariableNames, loadConfig } from '../../src/config.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');

/** The part of a Markdown file from its `<!-- section: name` marker to the next `## ` heading. */
function section(file: string, name: string): string {
  const text = read(file);
  const start = text.indexOf(`<!-- section: ${name}`);
  expect([file, start >= 0]).toEqual([file, true]);
  const end = text.indexOf('\n## ', start);
  return text.slice(start, end < 0 ? undefined : end);
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, each space a hyphen. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const headings = read(file)
    .replace(/```[\s\S]*?```/g, '')
    .matchAll(/^#{1,6} (.+)$/gm);
  return new Set([...headings].map((match) => anchorOf(match[1] ?? '')));
}

const markdownFiles = [
  'README.md',
  'CONTRIBUTING.md',
  'BENCHMARKS.md',
  ...readdirSync(`${root}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('documentation', () => {
  it('.env.example documents every variable, and its values are the defaults', () => {
    const example = read('.env.example');
    for (const name of configVariableNames) expect(example).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    const active = parseDotenv(example);
    for (const name of Object.keys(active)) expect(configVariableNames).toContain(name);
    expect(loadConfig(active, { envFile: false })).toEqual(loadConfig({}, { envFile: false }));
  });

  // The configuration table lives in docs/configuration.md (the README links to it).
  it('the configuration table (docs/configuration.md) lists every variable', () => {
    const table = section('docs/configuration.md', 'configuration');
    for (const name of configVariableNames) expect(table).toContain(`| \`${name}\` |`);
  });

  it('the quick start has exactly the two commands, and CI runs the test one', () => {
    const commands = [...section('README.md', 'quick-start').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
      match[1]?.trim(),
    );
    expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm test']);
    expect(read('.ci/run')).toMatch(/^npm ci && npm test$/m);
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.start).toBe('node bin/ragent.js start');
  });

  it('the Dockerfile runs commands and options that exist', () => {
    const dockerfile = read('Dockerfile');
    const healthcheck = /HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])/.exec(dockerfile)?.[1];
    const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(command ?? '[]')).toEqual(['node', 'bin/ragent.js', 'start']);
    const [node, script, subcommand, ...options] = JSON.parse(healthcheck ?? '[]') as string[];
    expect([node, script, subcommand]).toEqual(['node', 'bin/ragent.js', 'doctor']);
    expect(existsSync(`${root}${script}`)).toBe(true);
    const doctor = buildProgram().commands.find((candidate) => candidate.name() === 'doctor');
    const flags = doctor?.options.map((option) => option.long) ?? [];
    for (const option of options.filter((argument) => argument.startsWith('--')))
      expect(flags).toContain(option);
    expect(dockerfile).toMatch(/^FROM node:22|ARG NODE_IMAGE=node:22-bookworm-slim/m);
    expect(dockerfile).toContain('USER node');
    // The image runs the compiled JavaScript: `npm ci` builds dist/ (npm's `prepare`), the dev tools
    // are pruned, and the runtime stage copies dist/ without the sources (tsx is for development only).
    const packageJson = JSON.parse(read('package.json'));
    expect(packageJson.scripts.prepare).toBe('npm run -s build');
    expect(packageJson.scripts.build).toContain('tsc -p tsconfig.build.json');
    expect(packageJson.devDependencies).toHaveProperty('tsx');
    expect(dockerfile).toMatch(/RUN npm ci \\\n && npm prune --omit=dev/);
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).not.toMatch(/^COPY src/m);
  });

  it('services run node bin/ragent.js start directly (npm and npx do not pass SIGTERM on), with a stop timeout over the drain', () => {
    const unit = read('deploy/ragent.service');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node bin\/ragent\.js start$/m);
    expect(unit).toMatch(/^WorkingDirectory=\S+$/m);
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1])).toBeGreaterThan(15);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    const production = section('docs/production.md', 'production');
    expect(production).toContain('node bin/ragent.js start');
    expect(production).toMatch(/`npm start` or `npx ragent start`[^.]*SIGTERM[^.]*orphaned/);
  });

  it('compose pins Ollama and starts ragent once Qdrant is healthy', () => {
    const compose = read('docker-compose.yml');
    const images = [...compose.matchAll(/^\s+image: (\S+)$/gm)].map((match) => match[1]);
    expect(images.filter((image) => image?.startsWith('ollama/'))).toEqual([
      'ollama/ollama:0.33.0',
      'ollama/ollama:0.33.0',
    ]);
    expect(images.some((image) => image?.endsWith(':latest'))).toBe(false);
    expect(compose).toMatch(/qdrant:\n\s+condition: service_healthy/);
    expect(compose).toMatch(/qdrant:\n\s+image: qdrant\/qdrant:v[\d.]+\n[\s\S]*?healthcheck:/);
  });

  it('every benchmark script exists, and the README points at BENCHMARKS.md and CONTRIBUTING.md', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    for (const [name, command] of Object.entries(scripts).filter(([key]) => key.startsWith('bench:'))) {
      const file = /^tsx (bench\/[\w-]+\.ts)$/.exec(command)?.[1];
      expect([name, file && existsSync(`${root}${file}`)]).toEqual([name, true]);
    }
    expect(read('BENCHMARKS.md')).toContain('## Ingest');
    expect(section('README.md', 'testing')).toContain('CONTRIBUTING.md');
  });

  it('the README stays short for a newcomer and links to the reference in docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(350);
    for (const file of markdownFiles.filter((name) => name.startsWith('docs/')))
      expect([file, readme.includes(`](${file})`)]).toEqual([file, true]);
  });

  it('every relative link of the Markdown files points at a file (and heading) that exists', () => {
    for (const file of markdownFiles) {
      const text = read(file).replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^(https?:|mailto:)/.test(target)) continue;
        const [linked = '', anchor] = target.split('#');
        const resolved = linked
          ? path.posix.normalize(path.posix.join(path.posix.dirname(file), linked))
          : file;
        expect([file, target, existsSync(`${root}${resolved}`)]).toEqual([file, target, true]);
        if (anchor && resolved.endsWith('.md'))
          expect([file, target, anchors(resolved).has(anchor)]).toEqual([file, target, true]);
      }
    }
  });
});
