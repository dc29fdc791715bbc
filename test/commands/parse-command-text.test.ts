import { describe, expect, it } from 'vitest';
import { type CommandSpec, commandTable } from '../../src/commands/command-table.ts';
import { type ParsedText, parseCommandText, type TextSyntax } from '../../src/commands/parse-command-text.ts';
import { slackMarkup } from '../../src/platforms/slack/slack-markup.ts';

/** A syntax of another text-command platform (Mattermost's `~channel` and `@person`). */
const syntax: TextSyntax = {
  channel: (token) => /^~([a-z0-9-]+)$/.exec(token)?.[1],
  mentionable: (token) => /^@([a-z0-9.]+)$/.exec(token)?.[1],
  unescape: (text) => text.replace(/&amp;/g, '&'),
};
const table = commandTable(slackMarkup.terms);
const parse = (text: string, commands: readonly CommandSpec[] = table) =>
  parseCommandText(text, commands, syntax);
const argumentsOf = (parsed: ParsedText) => (parsed.kind === 'command' ? parsed.arguments : parsed.kind);

describe('parseCommandText', () => {
  it('reads a name, then a choice after its keyword, past the article', () => {
    expect(argumentsOf(parse('move HR guide.pdf to workspace'))).toEqual({
      name: 'HR guide.pdf',
      to: 'workspace',
    });
    expect(argumentsOf(parse('MOVE notes to this Channel'))).toEqual({ name: 'notes', to: 'channel' });
    expect(argumentsOf(parse('move a to b.pdf to the whole workspace'))).toEqual({
      name: 'a to b.pdf',
      to: 'workspace',
    });
    expect(parse('move notes.pdf').kind).toBe('unusable');
    expect(parse('move notes.pdf to server').kind).toBe('unusable');
  });

  it('gives the usage of a command whose arguments it cannot read', () => {
    const parsed = parse('move notes.pdf');
    expect(parsed.kind === 'unusable' && parsed.command.usage?.(slackMarkup.terms)).toMatch(
      /^Which document, and where to\? Use `\/ragent move <name> to channel\|workspace`/,
    );
  });

  it('takes free text as typed, with the platform’s escapes undone', () => {
    expect(argumentsOf(parse('forget Q&amp;A.pdf'))).toEqual({ name: 'Q&A.pdf' });
    expect(argumentsOf(parse('remove   spaced name.pdf  '))).toEqual({ name: 'spaced name.pdf' });
    expect(parse('forget').kind).toBe('unusable');
  });

  it('takes a channel or a person only from the platform’s mention syntax', () => {
    expect(argumentsOf(parse('use ~oncall'))).toEqual({ channel: 'oncall' });
    expect(parse('use oncall').kind).toBe('unusable');
    expect(argumentsOf(parse('handoff @support.team'))).toEqual({ target: 'support.team' });
    expect(argumentsOf(parse('handoff off'))).toEqual({ target: null });
    // "Nobody" must be said in text: an empty handoff is not a reset.
    expect(parse('handoff').kind).toBe('unusable');
    expect(parse('handoff support').kind).toBe('unusable');
  });

  it('accepts a choice by any of its words, and an optional argument after it', () => {
    expect(argumentsOf(parse('autoanswer yes'))).toEqual({ state: 'on', channel: undefined });
    expect(argumentsOf(parse('autoanswer OFF ~forum'))).toEqual({ state: 'off', channel: 'forum' });
    expect(parse('autoanswer maybe').kind).toBe('unusable');
    expect(parse('autoanswer').kind).toBe('unusable');
  });

  it('reads whole numbers within their limits', () => {
    const report: CommandSpec = {
      name: 'report',
      description: 'Report',
      arguments: [{ name: 'days', description: 'Days', kind: 'integer', required: false, min: 1, max: 365 }],
    };
    expect(argumentsOf(parse('report 30', [report]))).toEqual({ days: 30 });
    expect(argumentsOf(parse('report', [report]))).toEqual({ days: undefined });
    expect(parse('report 0', [report]).kind).toBe('unusable');
    expect(parse('report 400', [report]).kind).toBe('unusable');
    expect(parse('report 2.5', [report]).kind).toBe('unusable');
  });

  it('knows commands by their aliases, ignores what follows one without arguments, and names an unknown word', () => {
    expect(parse('documents').kind === 'command' && parse('documents')).toMatchObject({
      command: { name: 'docs' },
    });
    expect(argumentsOf(parse('help me please'))).toEqual({});
    expect(parse('  ')).toEqual({ kind: 'empty' });
    expect(parse('frobnicate now')).toEqual({ kind: 'unknown', word: 'frobnicate' });
  });

  it('does not offer a command the platform’s own permission setting guards', () => {
    expect(table.find((command) => command.name === 'report')?.gatedByPlatform).toBe(true);
    expect(parse('report 7')).toEqual({ kind: 'unknown', word: 'report' });
  });

  it('keeps the raw text for commands that read it themselves, and refuses text no one typed', () => {
    expect(parse('ingest https://example.com/a for workspace')).toMatchObject({
      rest: 'https://example.com/a for workspace',
    });
    expect(parse(`forget ${'x'.repeat(5_000)}`).kind).toBe('unusable');
  });
});
