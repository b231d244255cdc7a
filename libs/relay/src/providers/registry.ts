/**
 * Which protocol each channel type speaks (docs/providers.md): the OpenAI wire (bytes pass
 * through), a converting adaptor, or nothing this relay supports (a clear error instead of a wrong
 * call).
 */
import { speaksOpenAiWire, type WireChannel } from '../openai/openai-wire';
import { ALI_ADAPTOR } from './ali/ali-adaptor';
import { ANTHROPIC_ADAPTOR, anthropicNativeRequest } from './anthropic/anthropic-adaptor';
import { ANTHROPIC_INGRESS } from './anthropic/anthropic-ingress';
import { BAIDU_ADAPTOR } from './baidu/baidu-adaptor';
import { BEDROCK_ADAPTOR } from './bedrock/bedrock-adaptor';
import { COHERE_ADAPTOR } from './cohere/cohere-adaptor';
import { DIFY_ADAPTOR } from './dify/dify-adaptor';
import { GEMINI_ADAPTOR, geminiNativeRequest } from './gemini/gemini-adaptor';
import { GEMINI_INGRESS } from './gemini/gemini-ingress';
import { OLLAMA_ADAPTOR } from './ollama/ollama-adaptor';
import { TENCENT_ADAPTOR } from './tencent/tencent-adaptor';
import { VERTEX_ADAPTOR } from './vertex/vertex-adaptor';
import { ZHIPU_ADAPTOR } from './zhipu/zhipu-adaptor';
import type { ChatAdaptor, ProviderRequest, RequestContext } from './chat-adaptor';
import type { IngressCodec } from './ingress-codec';

/** The client protocols besides OpenAI's. */
export type IngressKind = 'anthropic' | 'gemini';

/** How a client of the upstream's own protocol is relayed: its request as it came. */
export interface NativeWire {
  readonly kind: IngressKind;
  request(
    raw: Buffer,
    body: Record<string, unknown>,
    channel: WireChannel,
    upstreamModel: string,
    stream: boolean,
    clientHeaders: Readonly<Record<string, string | undefined>>,
    ctx?: RequestContext,
  ): ProviderRequest;
}

export type ChannelProtocol =
  | { readonly kind: 'openai' }
  | { readonly kind: 'adaptor'; readonly adaptor: ChatAdaptor; readonly native?: NativeWire }
  | { readonly kind: 'unsupported' };

const ADAPTORS = new Map<number, { adaptor: ChatAdaptor; native?: NativeWire }>([
  [
    14,
    { adaptor: ANTHROPIC_ADAPTOR, native: { kind: 'anthropic', request: anthropicNativeRequest } },
  ],
  [24, { adaptor: GEMINI_ADAPTOR, native: { kind: 'gemini', request: geminiNativeRequest } }],
  [33, { adaptor: BEDROCK_ADAPTOR }],
  [41, { adaptor: VERTEX_ADAPTOR }],
  // Ollama's native API (its /v1 compatibility layer drops options and stream usage).
  [4, { adaptor: OLLAMA_ADAPTOR }],
  [34, { adaptor: COHERE_ADAPTOR }],
  [15, { adaptor: BAIDU_ADAPTOR }],
  // Zhipu's legacy v3 channels: its v4 (OpenAI-wire) API with the JWT the v3 keys sign.
  [16, { adaptor: ZHIPU_ADAPTOR }],
  [17, { adaptor: ALI_ADAPTOR }],
  [23, { adaptor: TENCENT_ADAPTOR }],
  [37, { adaptor: DIFY_ADAPTOR }],
]);

const INGRESSES: Record<IngressKind, IngressCodec> = {
  anthropic: ANTHROPIC_INGRESS,
  gemini: GEMINI_INGRESS,
};

const OPENAI: ChannelProtocol = { kind: 'openai' };
const UNSUPPORTED: ChannelProtocol = { kind: 'unsupported' };
/** Answers per type, built once: the relay asks on every attempt. */
const PROTOCOLS = new Map<number, ChannelProtocol>();

export function channelProtocol(type: number): ChannelProtocol {
  let protocol = PROTOCOLS.get(type);
  if (protocol === undefined) {
    const entry = ADAPTORS.get(type);
    protocol = entry
      ? { kind: 'adaptor', adaptor: entry.adaptor, native: entry.native }
      : speaksOpenAiWire(type)
        ? OPENAI
        : UNSUPPORTED;
    PROTOCOLS.set(type, protocol);
  }
  return protocol;
}

export function ingressCodec(kind: IngressKind): IngressCodec {
  return INGRESSES[kind];
}
