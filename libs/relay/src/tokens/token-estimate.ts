/**
 * Local token counts: the reservation's prompt estimate, and the fallback when an upstream reports
 * no usage (the receipt is then marked `estimated`). Counting costs ~45–85 µs per KB of natural
 * text on one core, so long texts above TOKENIZE_LIMIT are bounded from their UTF-8 size instead
 * (no common tokenizer yields more than one token per 2 bytes of ordinary text).
 */
import type * as SplitPatterns from 'gpt-tokenizer/cjs/encodingParams/constants';
import type { JsonObject } from '../openai/request-body';
import { BpeCounter } from './bpe-counter';
import { loadO200kRanks } from './o200k-ranks';

/**
 * o200k_base's counter, built on the first count, not at start: a gateway that has relayed nothing
 * holds no ranks. The ranks come from the tiktoken file gpt-tokenizer ships and the split pattern
 * from its constants; the merge is ours (bpe-counter.ts), and its counts are the library's.
 */
let counter: BpeCounter | undefined;

function countTokens(text: string): number {
  if (!counter) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous lazy load
    const patterns = require('gpt-tokenizer/cjs/encodingParams/constants') as typeof SplitPatterns;
    counter = new BpeCounter(loadO200kRanks(), patterns.O200K_TOKEN_SPLIT_REGEX);
  }
  return counter.count(text);
}

export const TOKENIZE_LIMIT = 8192;

/** OpenAI's chat framing: 3 tokens per message, 3 to prime the reply. */
const PER_MESSAGE = 3;
const REPLY_PRIMING = 3;
/** A low-detail image tile; high-detail images cost more, the upstream's usage settles it. */
const PER_IMAGE = 85;

export function countText(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > TOKENIZE_LIMIT) return Math.ceil(Buffer.byteLength(text, 'utf8') / 2);
  return countTokens(text);
}

function contentText(content: unknown, images: { count: number }): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as unknown[]) {
    if (part === null || typeof part !== 'object') continue;
    const p = part as JsonObject;
    if (typeof p.text === 'string') text += p.text;
    else if (p.type === 'image_url' || p.type === 'input_image') images.count += 1;
  }
  return text;
}

function joined(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join('\n');
  return '';
}

/** The prompt tokens of a JSON request body, as one-api and new-api estimate them. */
export function estimatePromptTokens(endpoint: string, body: JsonObject): number {
  if (endpoint === 'chat') {
    const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
    const images = { count: 0 };
    let text = '';
    for (const message of messages) {
      if (message === null || typeof message !== 'object') continue;
      const m = message as JsonObject;
      text += contentText(m.content, images);
      if (typeof m.name === 'string') text += m.name;
      text += '\n';
    }
    if (body.tools !== undefined) text += JSON.stringify(body.tools);
    return (
      countText(text) + messages.length * PER_MESSAGE + REPLY_PRIMING + images.count * PER_IMAGE
    );
  }
  if (endpoint === 'responses') {
    // Input is a string or a list of items whose content is a string or input_text parts.
    const images = { count: 0 };
    let text = typeof body.instructions === 'string' ? body.instructions : '';
    const items = typeof body.input === 'string' ? [{ content: body.input }] : body.input;
    let count = 0;
    if (Array.isArray(items)) {
      for (const item of items as unknown[]) {
        if (item === null || typeof item !== 'object') continue;
        count += 1;
        text += contentText((item as JsonObject).content, images) + '\n';
      }
    }
    if (body.tools !== undefined) text += JSON.stringify(body.tools);
    return countText(text) + count * PER_MESSAGE + REPLY_PRIMING + images.count * PER_IMAGE;
  }
  if (endpoint === 'completions') return countText(joined(body.prompt));
  if (endpoint === 'embeddings' || endpoint === 'moderations') return countText(joined(body.input));
  if (endpoint === 'imagesGenerations') return countText(joined(body.prompt));
  if (endpoint === 'audioSpeech') return countText(joined(body.input));
  if (endpoint === 'rerank') return countText(joined(body.query) + joined(body.documents));
  return 0;
}

/** Characters of the text before a piece that its count sees: enough for any merge across them. */
const CONTEXT_CHARS = 32;
/**
 * The context grows up to this many characters before it is cut back to CONTEXT_CHARS: while it
 * grows, its count is the one the last piece computed, so most pieces cost one count, not two.
 */
const CONTEXT_LIMIT = 2 * CONTEXT_CHARS;

/**
 * Counts a streamed text piece by piece, each piece in the context of what came before it: a
 * piece alone can count more than it adds (`tok ` is two tokens alone, one after `tok`), so a
 * stream cut by its count would lose answers that fit. The sum stays within a token or so of
 * counting the whole text at once.
 */
export class StreamTokenCounter {
  private context = '';
  /** The context's own count, when the last piece computed it (undefined after a cut). */
  private contextTokens: number | undefined;

  /** Starts after `text` (what was delivered before counting began). */
  constructor(text = '') {
    this.context = text.slice(-CONTEXT_CHARS);
  }

  /** The tokens `piece` adds after what came before. */
  add(piece: string): number {
    if (piece === '') return 0;
    const joined = this.context + piece;
    const tokens = countText(joined);
    const added = Math.max(0, tokens - (this.contextTokens ?? countText(this.context)));
    if (joined.length <= CONTEXT_LIMIT) {
      this.context = joined;
      this.contextTokens = tokens;
    } else {
      this.context = joined.slice(-CONTEXT_CHARS);
      this.contextTokens = undefined;
    }
    return added;
  }
}
