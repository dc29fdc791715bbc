/**
 * Why a platform could not connect, as the error that says what to fix: an error of ours (a store's)
 * as it is, the network not carrying the call as NETWORK_UNREACHABLE, anything else (a refused token,
 * a port in use, an answer that is not the platform's) as a setting to fix. The platform words each.
 */
import { describeError, isRagentError, RagentError } from '../errors.ts';
import { networkFailureOf } from '../outside-calls.ts';

export interface ConnectFailureWords {
  /** Omitted where a network failure is a setting to fix all the same. */
  network?: (reason: string) => string;
  other: (reason: string) => string;
}

export function connectFailure(error: unknown, words: ConnectFailureWords): RagentError {
  if (isRagentError(error)) return error;
  const network = words.network ? networkFailureOf(error) : undefined;
  if (network && words.network) {
    return new RagentError('NETWORK_UNREACHABLE', words.network(network.reason), {
      cause: error,
      details: { reason: network.reason, networkCode: network.networkCode },
    });
  }
  return new RagentError('CONFIG_INVALID', words.other(describeError(error)), { cause: error });
}
