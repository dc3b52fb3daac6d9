import { words } from '../analyzer.js';
import type { FieldReader, SearchDoc, TermFrequencies } from './fields.js';

const K1 = 1.2;
const B = 0.75;

/** Field lengths and document frequencies of one set of documents: reusable by every search of that same set. */
export interface CorpusStats {
  lengths: Map<string, { docs: number; total: number }>;
  /** By path, then by term: no key is built per document. */
  dfs: Map<string, Map<string, number>>;
}

export const emptyStats = (): CorpusStats => ({ lengths: new Map(), dfs: new Map() });

/** Term statistics of the searched documents for BM25 (Lucene's formula), computed for the fields and words a query needs. */
export class Corpus {
  private readonly lengths: CorpusStats['lengths'];
  private readonly dfs: CorpusStats['dfs'];
  /** A query's text analysed once, not once per document. */
  private readonly analysed = new Map<string, readonly string[]>();

  constructor(
    readonly docs: readonly SearchDoc[],
    readonly reader: FieldReader,
    /** Statistics already computed over exactly these documents (each is a pass over all of them). */
    stats: CorpusStats = emptyStats(),
  ) {
    this.lengths = stats.lengths;
    this.dfs = stats.dfs;
  }

  private fieldLength(path: string) {
    let s = this.lengths.get(path);
    if (!s) {
      s = { docs: 0, total: 0 };
      for (const doc of this.docs) {
        const { length } = this.reader.termFrequencies(doc, path);
        if (length) (s.docs++, (s.total += length));
      }
      this.lengths.set(path, s);
    }
    return s;
  }

  private df(path: string, term: string): number {
    let byTerm = this.dfs.get(path);
    if (!byTerm) this.dfs.set(path, (byTerm = new Map()));
    let n = byTerm.get(term);
    if (n === undefined) {
      n = 0;
      for (const doc of this.docs) if (this.reader.termFrequencies(doc, path).tf.has(term)) n++;
      byTerm.set(term, n);
    }
    return n;
  }

  /** The words of a text, each once. */
  distinctWords(text: string): readonly string[] {
    let found = this.analysed.get(text);
    if (!found) this.analysed.set(text, (found = [...new Set(words(text))]));
    return found;
  }

  /** BM25 of a document's field for the given words (each counted once). */
  bm25(doc: SearchDoc, path: string, terms: readonly string[]): number {
    return this.bm25Of(this.reader.termFrequencies(doc, path), path, terms);
  }

  /** BM25 of a field whose term frequencies are at hand. */
  bm25Of({ tf, length }: TermFrequencies, path: string, terms: readonly string[]): number {
    const s = this.fieldLength(path);
    const avg = s.docs ? s.total / s.docs : 1;
    let score = 0;
    for (const t of terms.length > 1 ? new Set(terms) : terms) {
      const f = tf.get(t);
      if (!f) continue;
      const df = this.df(path, t);
      const idf = Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / avg));
    }
    return score;
  }
}
