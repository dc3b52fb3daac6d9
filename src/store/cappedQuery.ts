import sparqljs from 'sparqljs';

/**
 * The query with a `LIMIT` of at most `rows` solutions, as a syntax tree written back: Oxigraph
 * evaluates lazily, so a limit stops a cartesian product at the cap instead of producing every row
 * (and the memory they take) before the cap is checked. A limit the query already has below the cap
 * is kept; text the parser refuses is passed on unchanged for the engine's own message.
 */
export const capped = (text: string, rows: number): string => {
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser().parse(text);
  } catch {
    return text;
  }
  if (parsed.type !== 'query' || parsed.queryType === 'ASK') return text;
  const query = parsed as { limit?: number };
  if (query.limit !== undefined && query.limit <= rows) return text;
  query.limit = rows;
  return new sparqljs.Generator().stringify(parsed);
};
