/**
 * A lock on one file name of a scope: `work` runs while no other holder of the same (scope, name)
 * runs — across replicas when they share a database (a PostgreSQL session lock), else in process.
 */
import type { Scope } from './types.ts';

export type NameLock = <Result>(scope: Scope, name: string, work: () => Promise<Result>) => Promise<Result>;
