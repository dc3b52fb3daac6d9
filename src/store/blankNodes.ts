/** A line of N-Triples or N-Quads with the blank node labels of its subject and object suffixed (a literal's text is left alone). */
export const scopeBlankNodes = (line: string, suffix: string): string => {
  let out = line;
  const subjectEnd = out.indexOf(' ');
  if (out.startsWith('_:')) out = out.slice(0, subjectEnd) + suffix + out.slice(subjectEnd);
  const object = out.indexOf('> ', out.indexOf(' ') + 1) + 2;
  if (object > 1 && out.startsWith('_:', object)) {
    const objectEnd = out.indexOf(' ', object);
    out = out.slice(0, objectEnd) + suffix + out.slice(objectEnd);
  }
  return out;
};
