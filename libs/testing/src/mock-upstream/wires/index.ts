import { ALI_WIRE } from './ali';
import { ANTHROPIC_WIRE } from './anthropic';
import { BEDROCK_WIRE } from './bedrock';
import { COHERE_WIRE } from './cohere';
import { GEMINI_WIRE } from './gemini';
import { OLLAMA_WIRE } from './ollama';
import type { ProviderWire } from './provider-wire';

export type { ProviderWire, WireCall, WireFailure } from './provider-wire';

/** The provider wires the mock speaks besides OpenAI's, tried in this order. */
export const PROVIDER_WIRES: readonly ProviderWire[] = [
  BEDROCK_WIRE,
  ANTHROPIC_WIRE,
  OLLAMA_WIRE,
  COHERE_WIRE,
  GEMINI_WIRE,
  ALI_WIRE,
];
