/** Every coordination port's contract suite against the Postgres store (replicas), on a real PostgreSQL. */
import { postgresBackend } from './contracts/coordination-backends.ts';
import { portContracts } from './contracts/port-contracts.ts';

for (const contract of portContracts) contract(postgresBackend);
