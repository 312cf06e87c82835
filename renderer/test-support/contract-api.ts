import { calls, events } from '../../shared/ipc/contract';
import type {
  CallName,
  CallOutput,
  EventName,
  EventPayload,
  FamiliarApi,
  ParsedCallInput,
} from '../../shared/ipc/contract';
import { err } from '../../shared/result';
import type { Result } from '../../shared/result';

export type CallHandler<N extends CallName> = (
  input: ParsedCallInput<N>,
) => Result<CallOutput<N>> | Promise<Result<CallOutput<N>>>;
export type CallHandlers = { [N in CallName]?: CallHandler<N> };

export interface ContractApi {
  readonly api: FamiliarApi;
  /** Every call the page made, inputs as the contract parsed them. */
  readonly invoked: { readonly name: CallName; readonly input: unknown }[];
  /** Inputs of the calls named `name`. */
  inputsOf<N extends CallName>(name: N): ParsedCallInput<N>[];
  /** Pushes an event to the page, checked against the contract first. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Replaces (or adds) a handler mid-test. */
  handle<N extends CallName>(name: N, handler: CallHandler<N>): void;
  /** Forgets handlers, recorded calls and listeners (between tests sharing one API). */
  reset(next?: CallHandlers): void;
}

/**
 * The page's side of the contract for component tests: each call's input and each answer and event
 * is parsed with the contract's own zod schemas, so a test cannot feed the page anything the real
 * core could not send, and the page cannot send anything the core would refuse. Calls without a
 * handler answer `unknown_call`. (The real core is exercised end to end by the Playwright tests.)
 */
export function createContractApi(initial: CallHandlers = {}): ContractApi {
  const handlers: CallHandlers = { ...initial };
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const invoked: { name: CallName; input: unknown }[] = [];

  const api: FamiliarApi = {
    async invoke(name, input) {
      const spec = calls[name];
      const parsed = spec.input.safeParse(input);
      if (!parsed.success) throw new Error(`the page sent an invalid ${name}: ${parsed.error.message}`);
      invoked.push({ name, input: parsed.data });
      const handler = handlers[name];
      if (handler === undefined) return err('unknown_call', `this test does not answer ${name}`);
      const result = await handler(parsed.data as ParsedCallInput<typeof name>);
      if (result.ok) spec.output.parse(result.value);
      return result;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const wrapped = listener as (payload: unknown) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
  };

  return {
    api,
    invoked,
    inputsOf: <N extends CallName>(name: N) =>
      invoked.filter((call) => call.name === name).map((call) => call.input as ParsedCallInput<N>),
    emit(event, payload) {
      const checked = events[event].parse(payload);
      for (const listener of listeners.get(event) ?? []) listener(checked);
    },
    handle(name, handler) {
      (handlers as Record<string, unknown>)[name] = handler;
    },
    reset(next = {}) {
      for (const name of Object.keys(handlers)) delete (handlers as Record<string, unknown>)[name];
      Object.assign(handlers, next);
      invoked.length = 0;
    },
  };
}
