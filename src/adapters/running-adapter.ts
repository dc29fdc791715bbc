/** A started chat platform connection, as the composition root sees it. */
export interface RunningAdapter {
  readonly name: string;
  /** Stop taking new events; resolves when in-flight work has finished or been checkpointed. */
  stop(): Promise<void>;
}
