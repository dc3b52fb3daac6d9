/**
 * A wildcard pattern (`*` any run of characters, `?` one character when `single` is on) as a test of
 * strings. Matched by the greedy two-pointer walk that backtracks only to the last `*`: at most
 * pattern × text steps. A regular expression of `.*` runs backtracks exponentially on patterns like
 * `*a*a*a*a*b` against a long run of `a`s, which would let one small query hold the process.
 */
export const globMatcher = (pattern: string, options: { single?: boolean; caseInsensitive?: boolean } = {}): ((text: string) => boolean) => {
  const fold = (s: string) => (options.caseInsensitive ? s.toLowerCase() : s);
  const p = [...fold(pattern)];
  return (input: string) => {
    const t = [...fold(input)];
    let i = 0;
    let j = 0;
    let star = -1;
    let resume = 0;
    while (i < t.length) {
      const c = p[j];
      if (c !== undefined && c !== '*' && (c === t[i] || (options.single && c === '?'))) {
        i++;
        j++;
      } else if (c === '*') {
        star = j++;
        resume = i;
      } else if (star >= 0) {
        j = star + 1;
        i = ++resume;
      } else return false;
    }
    while (p[j] === '*') j++;
    return j === p.length;
  };
};
