import { describe, expect, it } from 'vitest';
import { ingestTargetFromText, parseIngestTarget } from '../../src/turns/ingest-target.ts';

describe('which set a chat upload goes to', () => {
  it('reads “for workspace / server / everyone” and “for this channel” from the message, else the default', () => {
    for (const text of [
      'ingest for workspace',
      'please ingest this for the whole server',
      'Ingest for everyone',
    ]) {
      expect(ingestTargetFromText(text, 'channel')).toBe('workspace');
    }
    expect(ingestTargetFromText('ingest for this channel', 'workspace')).toBe('channel');
    expect(ingestTargetFromText('ingest', 'channel')).toBe('channel');
    expect(ingestTargetFromText('ingest', 'workspace')).toBe('workspace');
    // A word that merely contains one of them does not count.
    expect(ingestTargetFromText('ingest the forallocation notes', 'channel')).toBe('channel');
  });

  it('reads a form or option value, anything else being the default', () => {
    expect(parseIngestTarget('server', 'channel')).toBe('workspace');
    expect(parseIngestTarget('workspace', 'channel')).toBe('workspace');
    expect(parseIngestTarget('channel', 'workspace')).toBe('channel');
    expect(parseIngestTarget(null, 'workspace')).toBe('workspace');
    expect(parseIngestTarget('everything', 'channel')).toBe('channel');
  });
});
