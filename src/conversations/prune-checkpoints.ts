/**
 * Keeps only a thread's latest checkpoint (and its pending writes). Resuming, follow-ups and pending
 * clarifications need nothing older, and without this a long-lived Slack or Discord thread would grow the
 * database by several full snapshots per message, forever.
 */
import type { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';

export function createCheckpointPruner(checkpointer: SqliteSaver): (threadId: string) => void {
  const latest = `(SELECT checkpoint_id FROM checkpoints WHERE thread_id = @thread AND checkpoint_ns = @namespace
      ORDER BY checkpoint_id DESC LIMIT 1)`;
  let statements: {
    writes: { run(parameters: object): unknown };
    checkpoints: { run(parameters: object): unknown };
  };
  const prepare = () => {
    statements ??= {
      writes: checkpointer.db.prepare(
        `DELETE FROM writes WHERE thread_id = @thread AND checkpoint_ns = @namespace AND checkpoint_id <> ${latest}`,
      ),
      checkpoints: checkpointer.db.prepare(
        `DELETE FROM checkpoints WHERE thread_id = @thread AND checkpoint_ns = @namespace AND checkpoint_id <> ${latest}`,
      ),
    };
    return statements;
  };
  return (threadId) => {
    const { writes, checkpoints } = prepare();
    const parameters = { thread: threadId, namespace: '' };
    checkpointer.db.transaction(() => {
      writes.run(parameters);
      checkpoints.run(parameters);
    })();
  };
}
