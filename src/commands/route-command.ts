/**
 * Which way a chat command goes, decided once for every platform: the platform reads its wire (the text
 * typed, or the command picked with its options) into a `CommandCall` and gives its reply primitives;
 * this decides the rest. Help is shown at once where the platform can; outside any place (a DM with no
 * workspace or server around it) only help answers; ingest and ask go to the platform's own handlers
 * (they upload, open forms, stream); every other command is acknowledged before any I/O, then runs in the
 * core (run-text-command.ts also answers what cannot run) and its reply or failure goes back privately.
 */
import type { Actor } from '../turns/actor.ts';
import { guildOnlyText, unknownCommandText } from '../turns/messages-en.ts';
import type { PlaceIds, Places } from '../turns/place-sets.ts';
import { commandPlace, type KnownAboutPlace } from './command-place.ts';
import type { ArgumentValues, CommandServices } from './command-request.ts';
import { type CommandSpec, findCommand } from './command-table.ts';
import { helpText } from './help-command.ts';
import type { ParsedText } from './parse-command-text.ts';
import { runsCommand } from './run-command.ts';
import { type CommandReplies, runCommandRequest } from './run-command-request.ts';
import { runTextCommand } from './run-text-command.ts';

/**
 * A command as read off the wire: typed text parsed against the table, or a name the platform's picker
 * no longer has (`register`: what to run so the platform shows this version's commands).
 */
export type CommandCall = ParsedText | { kind: 'unregistered'; register: string };

/**
 * How a platform that must acknowledge a call within seconds (before any I/O) does it. A platform that
 * acknowledged on receipt has none: every answer is then its reply.
 */
export interface CommandAcknowledgement {
  /** A private "working…": the reply fills it in. */
  defer(): Promise<unknown>;
  /** A private answer at once; a later reply replaces it. */
  answer(text: string): Promise<unknown>;
}

export interface CommandRoute {
  call: CommandCall;
  /** False outside any place (a DM with no server around it): documents belong to a place. */
  inPlace: boolean;
  replies: CommandReplies;
  acknowledgement?: CommandAcknowledgement;
  /** The platform's own commands; `rest` is the text after the command's name ('' when picked). */
  handlers: Readonly<Record<PlatformCommand, (rest: string) => Promise<unknown>>>;
  actor(): Actor;
  /** Where the command was run, in the platform's places; read once it is acknowledged (it may do I/O). */
  at(): Promise<PlaceIds>;
  places: Places;
  /** What only the platform knows about where commands run (command-place.ts). */
  known: KnownAboutPlace;
  /** The longest reply the platform sends in one message. */
  maxLength: number;
  services: CommandServices;
}

/** The commands each platform runs itself: they upload, open forms, stream. */
type PlatformCommand = 'ingest' | 'ask';
const isPlatformCommand = (name: string): name is PlatformCommand => name === 'ingest' || name === 'ask';

export async function routeCommand(route: CommandRoute): Promise<void> {
  const { call, replies, acknowledgement } = route;
  const answer = acknowledgement?.answer ?? replies.reply;
  if (call.kind === 'unregistered') {
    await answer(unknownCommandText(call.register));
    return;
  }
  // Nothing typed is a request for help.
  const name = call.kind === 'empty' ? 'help' : call.kind === 'unknown' ? '' : call.command.name;
  const help = () => helpText(replies.markup, route.known.readsEveryMessage);
  // Outside any place there are no documents, nor a channel whose auto-answer line would follow help.
  if (!route.inPlace) {
    await answer(name === 'help' ? help() : guildOnlyText);
    return;
  }
  if (isPlatformCommand(name)) {
    await route.handlers[name]('rest' in call ? call.rest : '');
    return;
  }
  // Help needs no I/O: where the call must be acknowledged, it is shown at once, then with that line.
  if (name === 'help') await acknowledgement?.answer(help());
  else await acknowledgement?.defer();
  const run = async () => {
    const place = commandPlace(route.places, await route.at(), route.known);
    const request = { actor: route.actor(), place, markup: replies.markup, maxLength: route.maxLength };
    return runTextCommand(call, request, route.services);
  };
  await runCommandRequest(run, replies);
}

/**
 * A command picked by name (a platform with a command picker): its arguments as the platform read them
 * by the table's kinds; undefined when one is not what the command takes (then it answers with its usage).
 */
export function pickedCommand(
  table: readonly CommandSpec[],
  name: string,
  register: string,
  readArguments: (command: CommandSpec) => ArgumentValues | undefined,
): CommandCall {
  const command = findCommand(table, name);
  // A name this version cannot run is one an older version registered.
  if (!command || !(runsCommand(command.name) || isPlatformCommand(command.name)))
    return { kind: 'unregistered', register };
  const values = readArguments(command);
  return values
    ? { kind: 'command', command, rest: '', arguments: values }
    : { kind: 'unusable', command, rest: '' };
}
