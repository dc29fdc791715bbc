/**
 * HTML and e-mail are parsed in a reader worker thread like the Office formats: while a large HTML
 * file is read, the thread that serves chats keeps turning. Measured without a clock threshold: a
 * timer that re-arms itself every millisecond keeps firing all through the read — its longest pause
 * is a small part of the whole read (parsed on the main thread, one pause would be nearly all of it).
 */
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/ingest/extract-document.ts';

/** A saved page of about 250 kB: a heading and many sections of paragraphs and a table each. */
function largePage(sections: number): Uint8Array {
  const parts = [
    '<!doctype html><html><head><title>Handbook</title></head><body><nav>Home | About</nav><main>',
  ];
  parts.push('<h1>Handbook</h1>');
  for (let section = 0; section < sections; section++) {
    parts.push(`<h2>Section ${section}</h2>`);
    for (let paragraph = 0; paragraph < 4; paragraph++) {
      parts.push(
        `<p>Paragraph ${paragraph} of section ${section} explains the <b>rules</b> of the <a href="/s${section}">office</a> in plain words, with enough text to be read.</p>`,
      );
    }
    parts.push(
      `<table><tr><th>Item</th><th>Cost</th></tr><tr><td>Desk ${section}</td><td>${section * 10}</td></tr></table>`,
    );
  }
  parts.push('</main><footer>© Example</footer></body></html>');
  return new TextEncoder().encode(parts.join('\n'));
}

describe('HTML read in a worker thread', () => {
  it('keeps the event loop turning while a large page is parsed, and reads it whole', async () => {
    const bytes = largePage(300);
    const ticks: number[] = [];
    let running = true;
    const tick = () => {
      ticks.push(performance.now());
      if (running) setTimeout(tick, 1);
    };
    const started = performance.now();
    setTimeout(tick, 1);
    const document = await extractDocument(bytes, { name: 'handbook.html', kind: 'html', workers: 1 });
    running = false;
    const ended = performance.now();
    const marks = [started, ...ticks.filter((at) => at <= ended), ended];
    const pauses = marks.slice(1).map((at, index) => at - marks[index]!);
    const longest = Math.max(...pauses);
    // Relative, not a wall-clock limit: the loop was never stopped for most of the read.
    expect(longest).toBeLessThan((ended - started) / 4);
    expect(ticks.length).toBeGreaterThan(10);
    // And the page was read: its sections are there, its navigation and footer are not.
    const text = document.blocks.map((block) => block.text).join('\n');
    expect(text).toContain('Section 299');
    expect(text).toContain('Desk 299');
    expect(text).not.toContain('Home | About');
  });
});
