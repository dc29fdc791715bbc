/**
 * What a replica knows of the others, as the platforms need it: how much of a platform's rate budget
 * is its own (budgets are shared out among the live replicas, not multiplied by them), and exclusive
 * leases of numbered slots (Discord shards) that die with the replica. One process alone holds every
 * lease and the whole budget; replicas on PostgreSQL implement this in `stores/postgres/`.
 */

export interface Replicas {
  /** This replica's share of each platform's rate budget: 1 / live replicas (refreshed now and then). */
  budgetShare(): number;
  /** Opens the leases of one kind (e.g. a platform's shards): its own connection, held until `close`. */
  openLeases(kind: LeaseKind): Promise<Leases>;
  close(): Promise<void>;
}

/**
 * A kind of lease, declared by the platform that needs it. The two numbers are stable ids the replicas
 * keep its leases apart by (PostgreSQL advisory lock namespaces): never change them once released, or
 * an old and a new replica during an upgrade would each think they hold the same lease.
 */
export interface LeaseKind {
  /** What one lease is, for messages: "a Discord shard". */
  readonly description: string;
  /** The namespace of the leases (key: the lease id). */
  readonly leaseNamespace: number;
  /** The namespace of the membership lock every replica taking part holds (key: the replica). */
  readonly memberNamespace: number;
}

export interface Leases {
  /** Whether leases are shared with other replicas (false: one process, every `tryTake` succeeds). */
  readonly shared: boolean;
  /** Replicas that have these leases open right now (this one included): they share the ids out. */
  members(): Promise<number>;
  /** Takes lease `id` if no replica holds it; true when this replica holds it now. */
  tryTake(id: number): Promise<boolean>;
  release(id: number): Promise<void>;
  /**
   * Called once when every lease held was lost at once (the lease connection ended): the holder gives
   * them up at once. Later `tryTake` calls open a new connection.
   */
  onLost(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

/**
 * Model-call slots shared by every replica (RAGENT_LLM_CLUSTER_CONCURRENCY): a call holds one while
 * it runs; a slot a crashed replica held is free again at once.
 */
export interface ClusterSlots {
  /** Waits for a free slot (`onWait` once if it has to); resolves to its release. */
  acquire(options?: { signal?: AbortSignal; onWait?: () => void }): Promise<() => void>;
}
