/**
 * Writes of one (scope, file name) take turns: chained in this process, and across replicas through
 * `withNameLock` (a PostgreSQL lock when DATABASE_URL is set).
 */
import type { Scope } from '../core/types.ts';

export type WithNameLock = <Result>(
  scope: Scope,
  name: string,
  work: () => Promise<Result>,
) => Promise<Result>;

export class WriteLocks {
  /** Writes of one (scope, name) in this process, chained. */
  private readonly writing = new Map<string, Promise<unknown>>();
  private readonly withNameLock: WithNameLock | undefined;

  constructor(withNameLock: WithNameLock | undefined) {
    this.withNameLock = withNameLock;
  }

  /** One write of (scope, name) at a time: chained in this process, then the cross-process lock. */
  exclusive<Result>(scope: Scope, name: string, work: () => Promise<Result>): Promise<Result> {
    const key = `${scope}\u0000${name}`;
    const locked = () => (this.withNameLock ? this.withNameLock(scope, name, work) : work());
    const previous = this.writing.get(key) ?? Promise.resolve();
    const next = previous.then(locked, locked);
    const settled = next.catch(() => {});
    this.writing.set(key, settled);
    void settled.then(() => {
      if (this.writing.get(key) === settled) this.writing.delete(key);
    });
    return next;
  }
}
