/**
 * The sensitive-word list (`SensitiveWords`) as an Aho–Corasick automaton: built once per option
 * change, then every scan is one pass over the text whatever the number of words. Case-insensitive
 * (words and text lower-cased), as one-api and new-api compare. A scanner keeps its state between
 * pieces, so a word split over two stream deltas is still found.
 */

interface Node {
  readonly next: Map<number, number>;
  fail: number;
  /** Index of the word ending exactly here, or -1. */
  word: number;
  /** The nearest node on the fail chain where a word ends (-1: none): all matches at a position. */
  dict: number;
}

const newNode = (): Node => ({ next: new Map(), fail: 0, word: -1, dict: -1 });

export class SensitiveMatcher {
  private readonly nodes: Node[] = [newNode()];
  /** The words as configured (lower-cased, trimmed, distinct). */
  readonly words: readonly string[];

  private constructor(words: readonly string[]) {
    this.words = words;
    words.forEach((word, index) => this.insert(word, index));
    this.link();
  }

  /** The matcher of a word list (one per line, blanks ignored); undefined when it has no word. */
  static of(list: string | readonly string[]): SensitiveMatcher | undefined {
    const lines = typeof list === 'string' ? list.split('\n') : list;
    const words = [...new Set(lines.map((w) => w.trim().toLowerCase()).filter((w) => w !== ''))];
    return words.length === 0 ? undefined : new SensitiveMatcher(words);
  }

  private insert(word: string, index: number): void {
    let at = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      let to = this.nodes[at]!.next.get(c);
      if (to === undefined) {
        to = this.nodes.length;
        this.nodes.push(newNode());
        this.nodes[at]!.next.set(c, to);
      }
      at = to;
    }
    this.nodes[at]!.word = index;
  }

  /** Breadth-first: fail links and dictionary links. */
  private link(): void {
    const queue: number[] = [];
    for (const child of this.nodes[0]!.next.values()) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head]!;
      const node = this.nodes[at]!;
      for (const [c, child] of node.next) {
        let f = node.fail;
        while (f !== 0 && !this.nodes[f]!.next.has(c)) f = this.nodes[f]!.fail;
        const target = this.nodes[f]!.next.get(c);
        const fail = target !== undefined && target !== child ? target : 0;
        const childNode = this.nodes[child]!;
        childNode.fail = fail;
        const failNode = this.nodes[fail]!;
        childNode.dict = failNode.word !== -1 ? fail : failNode.dict;
        queue.push(child);
      }
    }
  }

  /** One step of the automaton from `state` on the code unit `c`. */
  step(state: number, c: number): number {
    let at = state;
    for (;;) {
      const to = this.nodes[at]!.next.get(c);
      if (to !== undefined) return to;
      if (at === 0) return 0;
      at = this.nodes[at]!.fail;
    }
  }

  /** A word that ends at `state`, or -1. */
  hitAt(state: number): number {
    const node = this.nodes[state]!;
    return node.word !== -1 ? node.word : node.dict === -1 ? -1 : this.nodes[node.dict]!.word;
  }

  /** The first word found in `text` (lower-cased before matching), or undefined. */
  first(text: string): string | undefined {
    const hit = this.scanner().feed(text);
    return hit;
  }

  /** Every distinct word in `text`, in the order they end. */
  all(text: string): string[] {
    const lower = text.toLowerCase();
    const found = new Set<number>();
    let state = 0;
    for (let i = 0; i < lower.length; i++) {
      state = this.step(state, lower.charCodeAt(i));
      const node = this.nodes[state]!;
      if (node.word !== -1) found.add(node.word);
      for (let d = node.dict; d !== -1; d = this.nodes[d]!.dict) found.add(this.nodes[d]!.word);
    }
    return [...found].map((index) => this.words[index]!);
  }

  scanner(): SensitiveScanner {
    return new SensitiveScanner(this);
  }
}

/** Scans a text that arrives in pieces (stream deltas), keeping the automaton's state. */
export class SensitiveScanner {
  private state = 0;

  constructor(private readonly matcher: SensitiveMatcher) {}

  /** The first word completed by this piece, or undefined. */
  feed(piece: string): string | undefined {
    if (piece === '') return undefined;
    const lower = piece.toLowerCase();
    let state = this.state;
    for (let i = 0; i < lower.length; i++) {
      state = this.matcher.step(state, lower.charCodeAt(i));
      const hit = this.matcher.hitAt(state);
      if (hit !== -1) {
        this.state = state;
        return this.matcher.words[hit];
      }
    }
    this.state = state;
    return undefined;
  }

  /** Texts that must not join (two messages): a word cannot span the boundary. */
  reset(): void {
    this.state = 0;
  }
}
