import { words } from '../../kernel/analyzer.js';
import type { Leaf, SearchDoc } from './fields.js';
import { epochMillis, FieldReader } from './fields.js';
import type { ScoresPool } from './Scores.js';

const K1 = 1.2;
const B = 0.75;

/** What the columns of one set may take, roughly, in bytes: past it the least recently used are dropped and read again when needed. */
const COLUMN_BYTES = 256 * 1024 * 1024;

/** Scores arrays kept for reuse: a search's nesting depth times a few. */
const SPARE_SCORES = 32;

/**
 * A field's words over the whole set, as Lucene keeps them: postings (which documents hold a word,
 * how often), one flat array for all words, and each document's field length.
 */
export interface TextColumn {
  /** Word count of the field's text values, by document (0: none). */
  lengths: Float64Array;
  /** Average field length over the documents holding the field (BM25's avgdl). */
  average: number;
  /** Word → its row: its postings are `docs`/`tf` from `offsets[row]` to `offsets[row + 1]` (documents in no set order). */
  terms: Map<string, number>;
  offsets: Int32Array;
  docs: Int32Array;
  tf: Int32Array;
  /** Some document holds a value here that is not text (keyword, number, boolean, date): matched as one term. */
  hasOther: boolean;
}

/** The postings of a word, as a range of `docs`/`tf`; undefined when no document holds it. */
export const postingsOf = (column: TextColumn, term: string): { start: number; end: number } | undefined => {
  const row = column.terms.get(term);
  return row === undefined ? undefined : { start: column.offsets[row]!, end: column.offsets[row + 1]! };
};

/**
 * A field's values as aggregations see them (Lucene's ordinals): numbers, dates in epoch
 * milliseconds, booleans as 1 or 0 and keywords, each distinct key numbered once for the set.
 */
export interface KeyColumn {
  keys: (string | number)[];
  /** A stored value of each key (what tells a date or a boolean key from a number). */
  raw: Leaf[];
  /** Each document's keys, each once: `ords` from `offsets[i]` to `offsets[i + 1]`. */
  offsets: Int32Array;
  ords: Int32Array;
  /** Documents holding a text value here: aggregations refuse text fields. */
  text: Uint8Array;
  /** Key → its ordinal. */
  ordinals: Map<string | number, number>;
}

/** A column of the previous set, and which documents changed since (`mask` by position, `changed` listed). */
type Carried<C> = { column: C; mask: Uint8Array; changed: readonly number[] };

/** The paths holding leaf values in the documents, gathered as one tree: a path's string is made once, not once per document. */
const collectPaths = (docs: readonly SearchDoc[]): string[] => {
  type Node = { path: string; leaf: boolean; children: Map<string, Node> };
  const root: Node = { path: '', leaf: false, children: new Map() };
  const walk = (value: unknown, node: Node): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) for (const v of value) walk(v, node);
    else if (typeof value === 'object')
      for (const k of Object.keys(value)) {
        let child = node.children.get(k);
        if (!child) node.children.set(k, (child = { path: node.path ? `${node.path}.${k}` : k, leaf: false, children: new Map() }));
        walk((value as Record<string, unknown>)[k], child);
      }
    else if (node !== root) node.leaf = true;
  };
  for (const doc of docs) walk(doc.source, root);
  const out: string[] = [];
  const collect = (node: Node): void => {
    if (node.leaf) out.push(node.path);
    for (const child of node.children.values()) collect(child);
  };
  collect(root);
  return out;
};

type Column = { kind: 'values'; column: Leaf[][] } | { kind: 'text'; column: TextColumn } | { kind: 'keys'; column: KeyColumn };

/**
 * One searched set of documents, read column by column as Lucene reads doc values: a field's values
 * and words are gathered for the whole set the first time a search needs them and serve every later
 * search of the same set, within a memory budget. Documents are named by their position in `docs`.
 * A column is read whole, never cut off by a search's time budget: a search over its budget stops
 * between columns, and the next one finds the columns read so far. The time spent reading them is
 * counted (`readMillis`): a search's budget pays for it only past a bound of its own.
 */
export class DocSet implements ScoresPool {
  readonly size: number;
  /** Documents that are not there any more (see `following`): they hold no value and match nothing. */
  readonly live: number;
  /** Least recently used first. */
  private readonly columns = new Map<string, { column: Column; bytes: number }>();
  private bytes = 0;
  private paths: string[] | undefined;
  /** A query's text analysed once, not once per document. */
  private readonly analysed = new Map<string, readonly string[]>();
  readonly reader = new FieldReader();
  /** Scores arrays given back by finished queries (see ScoresPool). */
  private readonly spare: Float64Array[] = [];

  constructor(
    readonly docs: readonly SearchDoc[],
    private readonly budget = COLUMN_BYTES,
    /** Positions whose document is gone (a tombstone keeps the positions of the others). */
    readonly dead?: Uint8Array,
  ) {
    this.size = docs.length;
    let gone = 0;
    if (this.dead) for (let i = 0; i < this.size; i++) gone += this.dead[i]!;
    this.live = this.size - gone;
  }

  /**
   * The set after some documents changed, were added (at the end) or removed (their position
   * marked dead, its document empty): every column the previous set holds is carried over, with only
   * the changed documents read again, which costs a copy of the column instead of reading every
   * document (a search right after a write).
   */
  static following(previous: DocSet, docs: readonly SearchDoc[], changed: readonly number[], dead: Uint8Array): DocSet {
    const next = new DocSet(docs, previous.budget, dead);
    const mask = new Uint8Array(docs.length);
    for (const i of changed) mask[i] = 1;
    for (let i = previous.size; i < docs.length; i++) mask[i] = 1;
    const base = { mask, changed: [...new Set([...changed, ...Array.from({ length: docs.length - previous.size }, (_, k) => previous.size + k)])] };
    // Values first: the other columns read them.
    const carried = [...previous.columns].sort(([a], [b]) => (a[0] === 'v' ? 0 : 1) - (b[0] === 'v' ? 0 : 1));
    for (const [key, { column }] of carried) {
      const path = key.slice(2);
      if (column.kind === 'values') next.values(path, { ...base, column: column.column });
      else if (column.kind === 'text') next.text(path, { ...base, column: column.column });
      else next.keys(path, { ...base, column: column.column });
    }
    // The carried columns' words and keys now belong to the new set's columns, which add to them:
    // the previous set keeps none of its columns, so nothing reads them through it again.
    previous.columns.clear();
    previous.bytes = 0;
    if (previous.paths) {
      const paths = new Set(previous.paths);
      for (const p of collectPaths(base.changed.map((i) => docs[i]!))) paths.add(p);
      next.paths = [...paths];
    }
    return next;
  }

  /** Every leaf value of the path, by document (see FieldReader.values). */
  values(path: string, base?: Carried<Leaf[][]>): Leaf[][] {
    return this.reading(() => this.valuesColumn(path, base));
  }

  /** The field's words over the set. */
  text(path: string, base?: Carried<TextColumn>): TextColumn {
    return this.reading(() => this.textColumn(path, base));
  }

  /** The field's aggregation keys by document. */
  keys(path: string, base?: Carried<KeyColumn>): KeyColumn {
    return this.reading(() => this.keysColumn(path, base));
  }

  /**
   * Time spent reading columns, in ms, over the set's life: the columns are kept for the searches
   * after, so a search's budget need not pay for all of them (executeSearch).
   */
  get readMillis(): number {
    return this.read;
  }

  private read = 0;
  private depth = 0;

  private reading<T>(build: () => T): T {
    // A column reads others (keys and words read values): timed once, outermost.
    if (this.depth++ > 0)
      try {
        return build();
      } finally {
        this.depth--;
      }
    const started = performance.now();
    try {
      return build();
    } finally {
      this.depth--;
      this.read += performance.now() - started;
    }
  }

  private valuesColumn(path: string, base?: Carried<Leaf[][]>): Leaf[][] {
    const key = `v ${path}`;
    const kept = this.kept(key);
    if (kept?.kind === 'values') return kept.column;
    let column: Leaf[][];
    if (base) {
      column = base.column.slice();
      for (const i of base.changed) column[i] = this.reader.values(this.docs[i]!, path);
    } else {
      column = new Array(this.size);
      for (let i = 0; i < this.size; i++) column[i] = this.reader.values(this.docs[i]!, path);
    }
    let leaves = 0;
    for (const v of column) leaves += v.length;
    this.keep(key, { kind: 'values', column }, this.size * 40 + leaves * 16);
    return column;
  }

  private textColumn(path: string, base?: Carried<TextColumn>): TextColumn {
    const key = `t ${path}`;
    const kept = this.kept(key);
    if (kept?.kind === 'text') return kept.column;
    const values = this.values(path);
    const old = base?.column;
    const oldRows = old ? old.offsets.length - 1 : 0;
    const lengths = new Float64Array(this.size);
    if (old) lengths.set(old.lengths.subarray(0, Math.min(old.lengths.length, this.size)));
    // The previous column's words are taken over, not copied (a hundred thousand of them is a costly copy): see `following`.
    const terms = old?.terms ?? new Map<string, number>();
    // Per word: its entries kept from the previous column (documents that did not change), then those read now.
    const counts: number[] = new Array<number>(oldRows).fill(0);
    if (old) for (let r = 0; r < oldRows; r++) for (let k = old.offsets[r]!; k < old.offsets[r + 1]!; k++) if (!base.mask[old.docs[k]!]) counts[r]++;
    // Each document's (row, tf) pairs in a row: turned into postings once every count is known.
    const pairs: number[] = [];
    const reading = base ? base.changed.length : this.size;
    const ends = new Int32Array(reading);
    // The document a word was last seen in, and where its pair is: a word counted once per document.
    const lastDoc: number[] = [];
    const pairAt: number[] = [];
    let hasOther = old?.hasOther ?? false;
    for (let j = 0; j < reading; j++) {
      const i = base ? base.changed[j]! : j;
      let length = 0;
      for (const value of values[i]!) {
        if (FieldReader.typeOfPath(path, value) !== 'text') {
          hasOther = true;
          continue;
        }
        for (const w of words(String(value))) {
          length++;
          let row = terms.get(w);
          if (row === undefined) (terms.set(w, (row = counts.length)), counts.push(0));
          if (lastDoc[row] === i) pairs[pairAt[row]! + 1]++;
          else ((lastDoc[row] = i), counts[row]++, (pairAt[row] = pairs.length), pairs.push(row, 1));
        }
      }
      lengths[i] = length;
      ends[j] = pairs.length;
    }
    const offsets = new Int32Array(counts.length + 1);
    for (let r = 0; r < counts.length; r++) offsets[r + 1] = offsets[r]! + counts[r]!;
    const cursor = offsets.slice(0, counts.length);
    const docs = new Int32Array(offsets[counts.length]!);
    const tfs = new Int32Array(docs.length);
    if (old)
      for (let r = 0; r < oldRows; r++)
        for (let k = old.offsets[r]!; k < old.offsets[r + 1]!; k++)
          if (!base.mask[old.docs[k]!]) {
            const at = cursor[r]!++;
            docs[at] = old.docs[k]!;
            tfs[at] = old.tf[k]!;
          }
    for (let j = 0, k = 0; j < reading; j++)
      for (; k < ends[j]!; k += 2) {
        const at = cursor[pairs[k]!]!++;
        docs[at] = base ? base.changed[j]! : j;
        tfs[at] = pairs[k + 1]!;
      }
    let holders = 0;
    let total = 0;
    for (const length of lengths) if (length) (holders++, (total += length));
    const column: TextColumn = { lengths, average: holders ? total / holders : 1, terms, offsets, docs, tf: tfs, hasOther };
    this.keep(key, { kind: 'text', column }, this.size * 8 + docs.length * 8 + terms.size * 64);
    return column;
  }

  private keysColumn(path: string, base?: Carried<KeyColumn>): KeyColumn {
    const key = `k ${path}`;
    const kept = this.kept(key);
    if (kept?.kind === 'keys') return kept.column;
    const values = this.values(path);
    const old = base?.column;
    // Taken over from the previous column, not copied: see `following`.
    const ordinals = old?.ordinals ?? new Map<string | number, number>();
    const keys = old?.keys ?? [];
    const raw = old?.raw ?? [];
    const offsets = new Int32Array(this.size + 1);
    const ords: number[] = [];
    const text = new Uint8Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const start = ords.length;
      if (old && i < old.text.length && !base.mask[i]) {
        text[i] = old.text[i]!;
        for (let k = old.offsets[i]!; k < old.offsets[i + 1]!; k++) ords.push(old.ords[k]!);
      } else
        for (const value of values[i]!) {
          const type = FieldReader.typeOfPath(path, value);
          if (type === 'text') {
            text[i] = 1;
            continue;
          }
          const k = type === 'date' ? epochMillis(String(value)) : type === 'boolean' ? (value ? 1 : 0) : (value as string | number);
          let ord = ordinals.get(k);
          if (ord === undefined) (ordinals.set(k, (ord = keys.length)), keys.push(k), raw.push(value));
          if (ords.indexOf(ord, start) < 0) ords.push(ord);
        }
      offsets[i + 1] = ords.length;
    }
    const column: KeyColumn = { keys, raw, offsets, ords: Int32Array.from(ords), text, ordinals };
    this.keep(key, { kind: 'keys', column }, this.size * 5 + ords.length * 4 + keys.length * 64);
    return column;
  }

  /** Every path holding leaf values in some document (what field patterns such as `*` or `name*` expand to). */
  fieldPaths(): string[] {
    this.paths ??= collectPaths(this.docs);
    return this.paths;
  }

  scores(fill: number): Float64Array {
    return (this.spare.pop() ?? new Float64Array(this.size)).fill(fill);
  }

  release(scores: Float64Array): void {
    if (scores.length === this.size && this.spare.length < SPARE_SCORES) this.spare.push(scores);
  }

  /** The words of a text, each once. */
  distinctWords(text: string): readonly string[] {
    let found = this.analysed.get(text);
    if (!found) this.analysed.set(text, (found = [...new Set(words(text))]));
    return found;
  }

  /** A word's inverse document frequency in a field (Lucene's BM25 idf). */
  idf(column: TextColumn, term: string): number {
    const p = postingsOf(column, term);
    const df = p ? p.end - p.start : 0;
    return Math.log(1 + (this.live - df + 0.5) / (df + 0.5));
  }

  /** BM25 of one word occurring `f` times in a document's field, given the word's idf. */
  static bm25(idf: number, f: number, length: number, average: number): number {
    return (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / average));
  }

  /** BM25 of a document's field for the given words (each counted once): the score of a phrase found in it. */
  bm25(i: number, path: string, column: TextColumn, terms: readonly string[]): number {
    const { tf } = this.reader.termFrequencies(this.docs[i]!, path);
    let score = 0;
    for (const t of terms.length > 1 ? new Set(terms) : terms) {
      const f = tf.get(t);
      if (f) score += DocSet.bm25(this.idf(column, t), f, column.lengths[i]!, column.average);
    }
    return score;
  }

  private kept(key: string): Column | undefined {
    const entry = this.columns.get(key);
    if (!entry) return undefined;
    // Most recently used last: the first entry is the one to drop.
    this.columns.delete(key);
    this.columns.set(key, entry);
    return entry.column;
  }

  private keep(key: string, column: Column, bytes: number): void {
    this.columns.set(key, { column, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.columns) {
      if (this.bytes <= this.budget || oldest === key) break;
      this.columns.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
