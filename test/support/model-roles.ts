/**
 * The fake model's replies routed by which graph step asks (the system prompt's role line), as the
 * graph, Slack and Discord tests script them.
 */
import { promptMarkers } from '../../src/graph/prompts.ts';
import {
  type ChatScript,
  type FakeChatReply,
  type FakeChatRequest,
  systemPrompt,
} from '../fakes/fake-ollama.ts';

export type Role = keyof typeof promptMarkers;

export type RoleScript = (request: FakeChatRequest, call: number) => FakeChatReply | Promise<FakeChatReply>;

export function roleOf(request: FakeChatRequest): Role | 'unknown' {
  const system = systemPrompt(request);
  for (const [role, marker] of Object.entries(promptMarkers))
    if (system.startsWith(marker)) return role as Role;
  return 'unknown';
}

/**
 * A chat script that answers each request with the script of its role, told how many requests of
 * that role came before. `scripts` is read at every request, so a test may swap one mid-way.
 */
export function scriptByRole(scripts: Record<Role, RoleScript>): ChatScript {
  const calls = new Map<Role, number>();
  return (request) => {
    const role = roleOf(request);
    if (role === 'unknown') return { content: 'unexpected request' };
    const call = calls.get(role) ?? 0;
    calls.set(role, call + 1);
    return scripts[role](request, call);
  };
}
