import { ALI_WIRE } from './ali';
import { ANTHROPIC_WIRE } from './anthropic';
import { BAIDU_WIRE } from './baidu';
import { BEDROCK_WIRE } from './bedrock';
import { COHERE_WIRE } from './cohere';
import { DIFY_WIRE } from './dify';
import { GEMINI_WIRE } from './gemini';
import { OLLAMA_WIRE } from './ollama';
import { OPENAI_RESPONSES_WIRE } from './openai-responses';
import type { ProviderWire } from './provider-wire';
import { TENCENT_WIRE } from './tencent';
import { VERTEX_WIRE } from './vertex';

export type { ProviderWire, WireCall, WireFailure } from './provider-wire';

/** The provider wires the mock speaks besides OpenAI's, tried in this order. */
export const PROVIDER_WIRES: readonly ProviderWire[] = [
  // Before Gemini's, whose `/models/{m}:generateContent` matcher would catch Vertex's paths.
  VERTEX_WIRE,
  BEDROCK_WIRE,
  ANTHROPIC_WIRE,
  OLLAMA_WIRE,
  COHERE_WIRE,
  GEMINI_WIRE,
  OPENAI_RESPONSES_WIRE,
  ALI_WIRE,
  BAIDU_WIRE,
  DIFY_WIRE,
  TENCENT_WIRE,
];
