/**
 * Runs a chat command by its name in the command table: the platform has parsed its payload into a
 * request; the reply text comes back for it to send privately. Ingest and ask are the platforms' own
 * (they upload, open forms, stream); they are in the table but not here.
 */
import { autoAnswerCommand } from './auto-answer-command.ts';
import type { CommandOperation, CommandRequest, CommandServices } from './command-request.ts';
import { forgetCommand } from './forget-command.ts';
import { handOffCommand } from './hand-off-command.ts';
import { helpCommand } from './help-command.ts';
import { linkChannelCommand } from './link-channel-command.ts';
import { listDocumentsCommand } from './list-documents-command.ts';
import { moveCommand } from './move-command.ts';
import { reportCommand } from './report-command.ts';

const operations: Readonly<Record<string, CommandOperation>> = {
  docs: listDocumentsCommand,
  forget: forgetCommand,
  move: moveCommand,
  use: linkChannelCommand(true),
  unuse: linkChannelCommand(false),
  autoanswer: autoAnswerCommand,
  handoff: handOffCommand,
  report: reportCommand,
  help: helpCommand,
};

/** Whether the core runs this command (else the platform routes it: ingest, ask). */
export const runsCommand = (name: string): boolean => Object.hasOwn(operations, name);

export async function runCommand(name: string, request: CommandRequest, services: CommandServices) {
  const operation = operations[name];
  if (!operation) throw new Error(`no operation for the command ${name}`);
  return operation(request, services);
}
