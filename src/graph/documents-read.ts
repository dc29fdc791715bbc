/**
 * The documents one sub-question's agent read, for its progress (a chat may show them as the
 * sub-question's sources while the answer is written): each once, by name, with its upload link where
 * it has one — asked only when `links` (a split question: a single one shows no plan), since the
 * lookup may be a network call (Qdrant). It never throws (`documentDetails`), so progress never fails a turn.
 */
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { turnContext } from './graph-dependencies.ts';
import type { AgentContext } from './state.ts';

export async function documentsRead(
  contexts: readonly AgentContext[],
  config: LangGraphRunnableConfig,
  options: { links: boolean },
): Promise<Array<{ name: string; link?: string }>> {
  const names = new Map<string, string>();
  for (const context of contexts)
    if (!names.has(context.documentId)) names.set(context.documentId, context.file);
  if (names.size === 0 || !options.links) return [...names.values()].map((name) => ({ name }));
  const details = await turnContext(config).tools.documentDetails([...names.keys()], config.signal);
  return [...names].map(([id, name]) => {
    const link = details.get(id)?.link;
    return link ? { name, link } : { name };
  });
}
