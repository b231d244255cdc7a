/**
 * `count` made-up words of `letters` lowercase letters, each after a space, always the same
 * sequence: text whose words are not in a tokenizer's vocabulary, so each is merged (and cached).
 */
export function madeUpWords(count: number, letters = 9): string[] {
  let seed = 12345;
  const letter = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return String.fromCharCode(97 + ((seed >>> 16) % 26)); // the high bits: the low ones cycle soon
  };
  return Array.from(
    { length: count },
    () => ' ' + Array.from({ length: letters }, letter).join(''),
  );
}
