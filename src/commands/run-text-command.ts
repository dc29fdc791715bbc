/**
 * A command as read off the wire (typed as text, or picked with its options), run in the core: the reply
 * to an empty, unknown or unreadable one is decided here too — help, "I don't know …" with the help, or
 * the command's usage.
 */
import { unknownSubcommandText } from '../turns/messages-en.ts';
import type { CommandRequest, CommandServices } from './command-request.ts';
import { helpText } from './help-command.ts';
import type { ParsedText } from './parse-command-text.ts';
import { runCommand } from './run-command.ts';

export async function runTextCommand(
  parsed: ParsedText,
  request: Omit<CommandRequest, 'arguments'>,
  services: CommandServices,
): Promise<string> {
  const { markup } = request;
  const help = () => helpText(markup, request.place.readsEveryMessage);
  switch (parsed.kind) {
    case 'unknown':
      return unknownSubcommandText(markup.code(markup.literal(parsed.word)), help());
    case 'unusable':
      return parsed.command.usage?.(markup.terms) ?? help();
    case 'empty':
      return runCommand('help', { ...request, arguments: {} }, services);
    case 'command':
      return runCommand(parsed.command.name, { ...request, arguments: parsed.arguments }, services);
  }
}
