/**
 * Python's `difflib.SequenceMatcher(a, b).quick_ratio()`: an upper bound on the similarity of two
 * strings from the characters they share, regardless of order. Django's
 * UserAttributeSimilarityValidator uses exactly this, so we do too, to answer as it would.
 */
export function quickRatio(a: string, b: string): number {
  const as = [...a];
  const bs = [...b];
  const length = as.length + bs.length;
  if (length === 0) return 1;
  const available = new Map<string, number>();
  for (const ch of bs) available.set(ch, (available.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of as) {
    const left = available.get(ch) ?? 0;
    if (left > 0) {
      matches++;
      available.set(ch, left - 1);
    }
  }
  return (2 * matches) / length;
}

/**
 * Django's `exceeds_maximum_length_ratio`: a value far shorter than the password cannot make it
 * "too similar" (a 3-letter domain inside a 40-character passphrase), so it is not compared at all.
 */
export function valueTooShortToCompare(password: string, value: string, maxSimilarity: number): boolean {
  const passwordLength = [...password].length;
  const valueLength = [...value].length;
  return passwordLength >= 10 * valueLength && valueLength < (maxSimilarity / 2) * passwordLength;
}
