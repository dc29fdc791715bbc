/**
 * Slack in HTTP mode in front of several replicas: Slack posts every event to one public URL and a
 * load balancer hands each request to one replica. This stands in for both — a signed delivery (see
 * fake-slack-events.ts) to one of N replica endpoints at random, and a redelivery (Slack's retry,
 * `x-slack-retry-num`) to another replica than the first, as a load balancer may well route it.
 */
import {
  createSlackEventSender,
  type Delivery,
  type DeliveryOptions,
  type SlackEventSender,
} from './fake-slack-events.ts';

export interface BalancedDelivery extends Delivery {
  /** Index of the replica endpoint that took the request. */
  target: number;
}

export interface BalancedDeliveryOptions extends DeliveryOptions {
  /** Deliver to this endpoint (an index); default: one at random. */
  target?: number;
  /** Any endpoint but this one when there is another. */
  avoid?: number;
}

export interface FakeLoadBalancer {
  readonly endpoints: readonly string[];
  /** Posts an Events API envelope to one replica. */
  event(envelope: Record<string, unknown>, options?: BalancedDeliveryOptions): Promise<BalancedDelivery>;
  /** Slack's retry of an event: the same envelope with `x-slack-retry-num`, to another replica than `previous`. */
  retry(
    envelope: Record<string, unknown>,
    previous: BalancedDelivery,
    retryNum?: number,
  ): Promise<BalancedDelivery>;
  /** Every delivery so far, oldest first. */
  readonly deliveries: readonly BalancedDelivery[];
}

export function createFakeLoadBalancer(
  endpoints: readonly string[],
  signingSecret: string,
  random: () => number = Math.random,
): FakeLoadBalancer {
  if (endpoints.length === 0) throw new Error('fake load balancer: no replica endpoint');
  const senders: SlackEventSender[] = endpoints.map((endpoint) =>
    createSlackEventSender(endpoint, signingSecret),
  );
  const deliveries: BalancedDelivery[] = [];
  const pick = (options: BalancedDeliveryOptions): number => {
    if (options.target !== undefined) return options.target;
    const candidates = endpoints
      .map((_endpoint, index) => index)
      .filter((index) => index !== options.avoid || endpoints.length === 1);
    return candidates[Math.floor(random() * candidates.length)] ?? 0;
  };
  const event = async (envelope: Record<string, unknown>, options: BalancedDeliveryOptions = {}) => {
    const target = pick(options);
    const sender = senders[target];
    if (!sender) throw new Error(`fake load balancer: no endpoint ${target}`);
    const { target: _target, avoid: _avoid, ...delivery } = options;
    const result: BalancedDelivery = { ...(await sender.event(envelope, delivery)), target };
    deliveries.push(result);
    return result;
  };
  return {
    endpoints,
    event,
    retry: (envelope, previous, retryNum = 1) => event(envelope, { retryNum, avoid: previous.target }),
    deliveries,
  };
}
