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

function bpe(): BpeCounter {
  if (!counter) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous lazy load
    const patterns = require('gpt-tokenizer/cjs/encodingParams/constants') as typeof SplitPatterns;
    counter = new BpeCounter(loadO200kRanks(), patterns.O200K_TOKEN_SPLIT_REGEX);
  }
  return counter;
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
  return bpe().count(text);
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

/**
 * A streamed text's tail is kept up to this many characters; a longer one (an unbroken run of
 * letters, CJK without punctuation) is cut to its last TAIL_CUT characters and counted from there,
 * a token or so off, rather than merged again whole with every piece.
 */
const TAIL_LIMIT = 64;
const TAIL_CUT = 32;

/**
 * Counts a streamed text piece by piece, each in the context of what came before it: a piece alone
 * can count more than it adds (`tok ` is two tokens alone, one after `tok`), so a stream cut by its
 * count would lose answers that fit. The split pattern cuts a text into parts that never merge with
 * each other, and text appended re-cuts at most the last two parts before it (an apostrophe waiting
 * for its `t`, a capital for the lower-case letters after it): each piece is counted after those
 * two, no more, and the sum is the whole text's count (but for tails past TAIL_LIMIT).
 */
export class StreamTokenCounter {
  /** The last two parts of the text so far (or its last TAIL_CUT characters), and their tokens. */
  private tail = '';
  private tailTokens = 0;
  /** Tokens a piece took back (it merged with the tail into fewer), taken from the next ones. */
  private credit = 0;

  /** The tokens of the text it starts after (`countText` of it). */
  readonly startTokens: number;

  /** Starts after `text` (what was delivered before counting began). */
  constructor(text = '') {
    this.startTokens = text === '' ? 0 : this.take(text);
  }

  /** The tokens `piece` adds after what came before. */
  add(piece: string): number {
    if (piece === '') return 0;
    const before = this.tailTokens;
    const added = this.take(this.tail + piece) - before + this.credit;
    this.credit = Math.min(0, added);
    return Math.max(0, added);
  }

  /** Counts `text` and keeps its tail. */
  private take(text: string): number {
    if (text.length > TOKENIZE_LIMIT) {
      this.keepCut(text);
      return countText(text);
    }
    const split = bpe();
    const tokens = split.count(text);
    const { tailStart, tailTokens } = split;
    if (text.length - tailStart > TAIL_LIMIT) this.keepCut(text);
    else {
      this.tail = text.slice(tailStart);
      this.tailTokens = tailTokens;
    }
    return tokens;
  }

  private keepCut(text: string): void {
    this.tail = text.slice(-TAIL_CUT);
    this.tailTokens = countText(this.tail);
  }
}
