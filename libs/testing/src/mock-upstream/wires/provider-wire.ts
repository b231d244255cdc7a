import type { ServerResponse } from 'node:http';
import type { MockBehavior, MockFailure } from '../mock-behavior';

/** One call as a provider wire sees it. */
export interface WireCall {
  readonly method: string;
  /** Without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Parsed JSON body ({} when none or not an object). */
  readonly body: Record<string, unknown>;
  readonly behavior: MockBehavior;
  readonly res: ServerResponse;
  /** The model: from the wire's `modelOf` (path) or the body's `model`. */
  readonly model: string;
  /** A per-mock counter for answer ids. */
  readonly id: number;
}

/** A failure in the provider's own error shape. */
export interface WireFailure {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

/**
 * A provider's wire format in the mock (Anthropic, Gemini, Ollama, …): which calls it answers, and
 * how it answers them and the canned failures. The OpenAI wire is the mock's default.
 */
export interface ProviderWire {
  readonly name: string;
  matches(method: string, path: string): boolean;
  /** The model named by the path (Gemini, Bedrock); undefined to read the body's `model`. */
  modelOf?(path: string): string | undefined;
  answer(call: WireCall): void | Promise<void>;
  /**
   * A canned failure (`fail`) or an explicit `status` without `errorBody`, in the provider's
   * shape. `key` is the caller's key (the invalid-key message masks it).
   */
  failure(kind: MockFailure | 'status', status: number, key: string): WireFailure;
}
