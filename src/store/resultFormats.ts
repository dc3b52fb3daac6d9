import type { Binding, Row } from './GraphStore.js';
import { iri, literal } from '../rdf/terms.js';

/**
 * SPARQL results written here from their JSON form, in the other formats of the SPARQL 1.1 result
 * specifications, so an external server's answers read the same whatever server it is (and one
 * query suffices).
 */
export const writeResults = (mediaType: string, vars: string[], rows: Row[] | undefined, boolean?: boolean): string => {
  switch (mediaType) {
    case 'application/sparql-results+json':
      return JSON.stringify(rows === undefined ? { head: {}, boolean } : { head: { vars }, results: { bindings: rows } });
    case 'application/sparql-results+xml':
      return xml(vars, rows, boolean);
    case 'text/csv':
      return rows === undefined
        ? `${boolean}\r\n`
        : [vars.map(csvField), ...rows.map((r) => vars.map((v) => csvField(r[v]?.value ?? '')))].map((l) => l.join(',')).join('\r\n') + '\r\n';
    case 'text/tab-separated-values':
      return rows === undefined
        ? `${boolean}\n`
        : [vars.map((v) => `?${v}`), ...rows.map((r) => vars.map((v) => tsvTerm(r[v])))].map((l) => l.join('\t')).join('\n') + '\n';
    default:
      throw new Error(`no result format ${mediaType}`);
  }
};

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

const tsvTerm = (b: Binding | undefined): string => {
  if (!b) return '';
  if (b.type === 'uri') return iri(b.value);
  if (b.type === 'bnode') return `_:${b.value.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const text = literal(b.value, b.datatype);
  return b['xml:lang'] ? `${text}@${b['xml:lang']}` : text;
};

const escapeXml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const xmlTerm = (b: Binding): string => {
  if (b.type === 'uri') return `<uri>${escapeXml(b.value)}</uri>`;
  if (b.type === 'bnode') return `<bnode>${escapeXml(b.value)}</bnode>`;
  const lang = b['xml:lang'] ? ` xml:lang="${escapeXml(b['xml:lang'])}"` : '';
  const datatype = b.datatype ? ` datatype="${escapeXml(b.datatype)}"` : '';
  return `<literal${lang}${datatype}>${escapeXml(b.value)}</literal>`;
};

const xml = (vars: string[], rows: Row[] | undefined, boolean?: boolean): string => {
  const head = `<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>${vars.map((v) => `<variable name="${escapeXml(v)}"/>`).join('')}</head>`;
  if (rows === undefined) return `${head}<boolean>${boolean}</boolean></sparql>`;
  const results = rows.map(
    (r) =>
      `<result>${Object.entries(r)
        .filter(([, b]) => b)
        .map(([name, b]) => `<binding name="${escapeXml(name)}">${xmlTerm(b!)}</binding>`)
        .join('')}</result>`,
  );
  return `${head}<results>${results.join('')}</results></sparql>`;
};
