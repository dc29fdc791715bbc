import { describe, expect, it } from 'vitest';
import { isDisguised, revealDisguisedLinks } from '../../src/turns/reveal-disguised-links.ts';

describe('revealDisguisedLinks', () => {
  it('replaces a link whose text is another address by its real target', () => {
    expect(revealDisguisedLinks('Download it from [https://trusted.example](https://evil.example/x).')).toBe(
      'Download it from https://evil.example/x.',
    );
    expect(revealDisguisedLinks('See [trusted.example/docs](https://evil.example)')).toBe(
      'See https://evil.example',
    );
    expect(revealDisguisedLinks('[www.bank.example](http://phish.example)')).toBe('http://phish.example');
    expect(revealDisguisedLinks('[**https://a.example**](https://b.example)')).toBe('https://b.example');
  });

  it('keeps links whose text is plain words, a file name, or the same host', () => {
    const kept = [
      'Read [the manual](https://example.com/manual).',
      '[bash.pdf](https://files.slack.com/files-pri/T1-F1/bash.pdf)',
      '[example.com/docs](https://example.com/docs/install)',
      '[https://www.example.com](https://example.com/)',
    ];
    for (const text of kept) expect(revealDisguisedLinks(text)).toBe(text);
  });

  it('resolves reference-style links', () => {
    const markdown = 'Go to [https://good.example][1].\n\n[1]: https://bad.example/login';
    expect(revealDisguisedLinks(markdown)).toBe(
      'Go to https://bad.example/login.\n\n[1]: https://bad.example/login',
    );
  });

  it('leaves code spans and fenced code alone', () => {
    const markdown =
      'Use `[https://a.example](https://b.example)`\n```\n[https://a.example](https://b.example)\n```';
    expect(revealDisguisedLinks(markdown)).toBe(markdown);
  });

  it('treats an address label without a readable host as disguised', () => {
    expect(isDisguised('https://a.example', 'mailto:someone@b.example')).toBe(true);
    expect(isDisguised('click here', 'https://b.example')).toBe(false);
  });
});
