/**
 * A command typed as text (`/ragent move handbook.pdf to workspace`), read against the command table:
 * the first word names the command, the rest fills its arguments in order. Free text is taken as typed
 * (`name`), a choice by its words (`to this channel`), a channel or a person by the platform's own
 * mention syntax — never by a name someone typed, so a lookalike cannot stand in for a channel.
 */
import type { ArgumentValues } from './command-request.ts';
import { type ArgumentSpec, type CommandSpec, findCommand } from './command-table.ts';

/** How a platform writes channels and people in a command's text. */
export interface TextSyntax {
  /** A channel mention → the channel's id; undefined when the token is not one. */
  channel(token: string): string | undefined;
  /** A person or group mention → the target as settings store it; undefined when not one. */
  mentionable(token: string): string | undefined;
  /** Free text with the platform's escapes undone (a name the platform turned into a link: its text). */
  unescape(text: string): string;
}

export type ParsedText =
  | { kind: 'empty' }
  | { kind: 'unknown'; word: string }
  /** `rest`: the text after the command's name, for commands that read it themselves (ingest, ask). */
  | { kind: 'command'; command: CommandSpec; rest: string; arguments: ArgumentValues }
  | { kind: 'unusable'; command: CommandSpec; rest: string };

/** Longer text is no command anyone typed: refused before any pattern runs over it. */
const maxTextLength = 4_000;

export function parseCommandText(
  text: string,
  table: readonly CommandSpec[],
  syntax: TextSyntax,
): ParsedText {
  const [word = '', ...words] = text.trim().split(/\s+/);
  if (!word) return { kind: 'empty' };
  const command = findCommand(
    table.filter((entry) => !entry.gatedByPlatform),
    word,
  );
  if (!command) return { kind: 'unknown', word };
  const rest = words.join(' ');
  const specs = command.arguments.filter((argument) => argument.kind !== 'file');
  // A command without arguments ignores what follows it (`help me`).
  if (specs.length === 0) return { kind: 'command', command, rest, arguments: {} };
  const unusable = { kind: 'unusable', command, rest } as const;
  if (rest.length > maxTextLength) return unusable;
  const match = argumentsPattern(specs).exec(rest);
  if (!match) return unusable;
  const values: Record<string, Value> = {};
  for (const [index, spec] of specs.entries()) {
    const given = match[index + 1];
    const value = given === undefined ? undefined : readValue(spec, given, syntax);
    if (value === invalid || (value === undefined && isRequired(spec))) return unusable;
    values[spec.name] = value;
  }
  return { kind: 'command', command, rest, arguments: values };
}

const invalid = Symbol('invalid');
type Value = ArgumentValues[string];

/** A mentionable with a word for "nobody" must be given one way or the other in text. */
function isRequired(spec: ArgumentSpec): boolean {
  return spec.required || spec.clearWord !== undefined;
}

function readValue(spec: ArgumentSpec, given: string, syntax: TextSyntax): Value | typeof invalid {
  switch (spec.kind) {
    case 'text':
      return syntax.unescape(given).trim() || undefined;
    case 'choice': {
      const word = given.toLowerCase();
      const choice = spec.choices?.find((option) => (option.words ?? [option.value]).includes(word));
      return choice ? choice.value : invalid;
    }
    case 'channel':
      return syntax.channel(given) ?? invalid;
    case 'mentionable':
      if (spec.clearWord && given.toLowerCase() === spec.clearWord) return null;
      return syntax.mentionable(given) ?? invalid;
    case 'integer': {
      const number = Number(given);
      const inRange = (spec.min ?? 1) <= number && number <= (spec.max ?? Number.MAX_SAFE_INTEGER);
      return Number.isSafeInteger(number) && inRange ? number : invalid;
    }
    case 'file':
      return invalid;
  }
}

/** One anchored pattern, one group per argument, in order; optional ones may be left out. */
function argumentsPattern(specs: readonly ArgumentSpec[]): RegExp {
  const parts = specs.map((spec, index) => {
    const last = index === specs.length - 1;
    const lead = index === 0 ? '' : '\\s+';
    const keyword = spec.keyword ? `${escapePattern(spec.keyword)}\\s+` : '';
    const part = `${lead}${keyword}${valuePattern(spec, last)}`;
    return isRequired(spec) ? part : `(?:${part})?`;
  });
  return new RegExp(`^${parts.join('')}$`, 'i');
}

function valuePattern(spec: ArgumentSpec, last: boolean): string {
  switch (spec.kind) {
    case 'text':
      return last ? '(.+)' : '(.+?)';
    case 'choice': {
      const words = (spec.choices ?? []).flatMap((choice) => choice.words ?? [choice.value]);
      // `to this channel`, `to the whole workspace`: the article is read past.
      return `(?:this\\s+|the\\s+(?:whole\\s+)?)?(${words.map(escapePattern).join('|')})`;
    }
    case 'channel':
    case 'mentionable':
      return '(<[^>\\s]*(?:\\|[^>]*)?>|\\S+)';
    case 'integer':
      return '(\\d{1,9})';
    case 'file':
      return '()';
  }
}

function escapePattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
