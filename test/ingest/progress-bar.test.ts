import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressBar, formatDuration, renderLine } from '../../src/adapters/cli/progress-bar.ts';

function capture(isTTY: boolean) {
  let written = '';
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    }),
    { isTTY, columns: 100 },
  );
  return { stream, output: () => written };
}

describe('progress bar', () => {
  it('renders pages, rate and ETA', () => {
    expect(renderLine('refman.pdf: reading', 500, 2000, 'pages', 2, 10)).toBe(
      'refman.pdf: reading [███░░░░░░░] 500/2000 pages · 250 pages/s · ETA 6s',
    );
    expect(renderLine('x', 2000, 2000, 'pages', 8, 0)).toBe('x 2000/2000 pages · 250 pages/s');
    expect(renderLine('x: opening', 0, 0, '', 0, 10)).toBe('x: opening…');
    expect([formatDuration(59.2), formatDuration(125), formatDuration(7_300)]).toEqual([
      '60s',
      '2m05s',
      '2h1m',
    ]);
  });

  it('redraws one line in a terminal, at most ten times a second', () => {
    let now = 0;
    const { stream, output } = capture(true);
    const bar = createProgressBar({ stream, now: () => now, width: 4 });
    bar.update('a: reading', 1, 4, 'pages');
    now = 50;
    bar.update('a: reading', 2, 4, 'pages');
    now = 1_000;
    bar.update('a: reading', 3, 4, 'pages');
    bar.log('✓ a: done');
    expect(output()).toBe(
      '\r\u001b[2Ka: reading [█░░░] 1/4 pages' +
        '\r\u001b[2Ka: reading [███░] 3/4 pages · 3.0 pages/s · ETA 1s' +
        '\r\u001b[2K✓ a: done\n',
    );
  });

  it('prints plain lines, one per tenth, when not a terminal', () => {
    const { stream, output } = capture(false);
    const bar = createProgressBar({ stream, now: () => 0 });
    for (let done = 1; done <= 100; done++) bar.update('b: reading', done, 100, 'pages');
    bar.log('✓ b: done');
    const lines = output().trim().split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe('b: reading 1/100 pages');
    expect(lines.at(-2)).toBe('b: reading 100/100 pages');
    expect(output()).not.toContain('\r');
  });
});
