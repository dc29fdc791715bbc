/** Every coordination port's contract suite against the SQLite store (one process, `bot.sqlite`). */
import { sqliteBackend } from './contracts/coordination-backends.ts';
import { portContracts } from './contracts/port-contracts.ts';

for (const contract of portContracts) contract(sqliteBackend);
