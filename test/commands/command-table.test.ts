import { describe, expect, it } from 'vitest';
import { commandTable, findCommand } from '../../src/commands/command-table.ts';
import { discordTerms } from '../../src/platforms/discord/discord-text.ts';
import { slackMarkup } from '../../src/platforms/slack/slack-markup.ts';

const tables = { slack: commandTable(slackMarkup.terms), discord: commandTable(discordTerms) };

describe('the command table', () => {
  for (const [platform, table] of Object.entries(tables)) {
    it(`describes every command and argument once, in ${platform}'s words`, () => {
      const names = table.flatMap((command) => [command.name, ...(command.aliases ?? [])]);
      expect(new Set(names).size).toBe(names.length);
      for (const command of table) {
        expect(command.description, command.name).toMatch(/^\S.{2,99}$/);
        const argumentNames = command.arguments.map((argument) => argument.name);
        expect(new Set(argumentNames).size, command.name).toBe(argumentNames.length);
        // A picker (Discord) refuses a required argument after an optional one.
        const firstOptional = command.arguments.findIndex((argument) => !argument.required);
        const lastRequired = command.arguments.findLastIndex((argument) => argument.required);
        expect(firstOptional === -1 || lastRequired < firstOptional, command.name).toBe(true);
        for (const argument of command.arguments) {
          expect(argument.description, `${command.name} ${argument.name}`).toMatch(/^\S.{2,99}$/);
          expect(argument.kind === 'choice', `${command.name} ${argument.name}`).toBe(
            argument.choices !== undefined,
          );
        }
      }
    });
  }

  it('names the place’s set as the platform does, in choices and descriptions', () => {
    const choices = (table: typeof tables.slack) =>
      findCommand(table, 'move')?.arguments.find((argument) => argument.name === 'to')?.choices;
    expect(choices(tables.slack)).toEqual([
      { value: 'channel', label: 'this channel' },
      { value: 'workspace', label: 'the whole workspace' },
    ]);
    expect(choices(tables.discord)?.[1]).toEqual({ value: 'server', label: 'the whole server' });
    expect(findCommand(tables.discord, 'use')?.description).toContain('(Manage Channels or Manage Server)');
    expect(findCommand(tables.slack, 'use')?.description).toContain('here (admins)');
    expect(findCommand(tables.slack, 'forget')?.description).toBe(
      "Remove a document from this channel's or this workspace's documents",
    );
  });

  it('finds a command by name or alias, whatever the case', () => {
    expect(findCommand(tables.slack, 'REMOVE')?.name).toBe('forget');
    expect(findCommand(tables.slack, 'list')?.name).toBe('docs');
    expect(findCommand(tables.slack, 'nothing')).toBeUndefined();
  });
});
