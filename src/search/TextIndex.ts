import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JsonObject } from '../domain/resources/ResourceEvent.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { TextMatch } from '../catalogue/textRanking.js';

/** One indexed item: its search document and the words a listing's `q` looks for. */
export interface IndexedItem {
  /** The item node (graphNames.ts): unique across kinds and projects. */
  node: string;
  kind: string;
  project: ProjectRef;
  id: string;
  /** Log position of the event holding the content the document was made from. */
  contentSeq: number;
  rev: number;
  deprecated: boolean;
  /** The item as a fetch returns it (search documents of the query API). */
  doc: JsonObject;
  /** Every value of the payload, for FTS5. */
  body: string;
}

/** What the index holds of an item, to tell whether a restored state is already indexed. */
export interface IndexedVersion {
  contentSeq: number;
  rev: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  rowid INTEGER PRIMARY KEY,
  node TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  project TEXT NOT NULL,
  id TEXT NOT NULL,
  content_seq INTEGER NOT NULL,
  rev INTEGER NOT NULL,
  deprecated INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_scope ON docs (kind, project);
CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5 (body, tokenize = 'unicode61 remove_diacritics 0');
CREATE TABLE IF NOT EXISTS positions (project TEXT PRIMARY KEY, seq INTEGER NOT NULL);
`;

/** Match lists kept for repeated queries, in rows across all of them (a common word's list is one row per item). */
const CACHED_ROWS = 500_000;

/** Writes are grouped into one transaction committed this often: the connection reads its own uncommitted writes. */
const COMMIT_MILLIS = 200;

/**
 * The embedded text index (SQLite FTS5, BM25 ranking) and the search documents, in one file under
 * DATA_DIR. It is a projection of the log: what it holds is redone from the log whenever it is lost,
 * so writes are committed in groups rather than one by one.
 */
export class TextIndex {
  private inTransaction = false;
  private commitTimer: NodeJS.Timeout | undefined;
  private readonly statements: Record<string, Statement>;
  /** Parsed documents of the projects a search has read, kept current by every write. */
  private readonly loaded = new Map<string, Map<string, JsonObject>>();
  /** Item node and kind by row: matches are read without joining the documents table (a quarter of a common word's query). */
  private readonly rows = new Map<number, { node: string; kind: string }>();
  /** Log position of the last event applied per project (the search view's offset). */
  private readonly projectPositions = new Map<ProjectRef, number>();
  /**
   * The matches of recent expressions, valid until the next write: BM25 scores depend on the whole
   * index, so any write changes them. Ranking every match of a common word is most of a `q` listing's time.
   */
  private readonly matchCache = new Map<string, TextMatch[]>();
  private cachedRows = 0;
  private changes = 0;

  private constructor(
    private readonly db: Db,
    /** The file did not exist: everything must be indexed from the log. */
    readonly created: boolean,
  ) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    this.statements = {
      find: db.prepare('SELECT rowid FROM docs WHERE node = ?'),
      insert: db.prepare(
        'INSERT INTO docs (node, kind, project, id, content_seq, rev, deprecated, doc) VALUES (@node, @kind, @project, @id, @contentSeq, @rev, @deprecated, @doc)',
      ),
      replace: db.prepare('UPDATE docs SET content_seq = @contentSeq, rev = @rev, deprecated = @deprecated, doc = @doc WHERE rowid = @rowid'),
      insertWords: db.prepare('INSERT INTO words (rowid, body) VALUES (?, ?)'),
      deleteWords: db.prepare('DELETE FROM words WHERE rowid = ?'),
      deleteDoc: db.prepare('DELETE FROM docs WHERE rowid = ?'),
      versions: db.prepare('SELECT node, content_seq AS contentSeq, rev FROM docs'),
      match: db.prepare('SELECT rowid, -bm25(words) FROM words WHERE words MATCH ?').raw(true),
      rows: db.prepare('SELECT rowid, node, kind FROM docs').raw(true),
      docsOf: db.prepare('SELECT node, doc FROM docs WHERE kind = ? AND project = ?'),
      docOf: db.prepare('SELECT doc FROM docs WHERE node = ?'),
      position: db.prepare('INSERT INTO positions (project, seq) VALUES (?, ?) ON CONFLICT (project) DO UPDATE SET seq = excluded.seq'),
      positions: db.prepare('SELECT project, seq FROM positions'),
    };
    for (const row of this.statements['positions']!.all() as { project: string; seq: number }[]) this.projectPositions.set(row.project, row.seq);
    for (const [rowid, node, kind] of this.statements['rows']!.iterate() as Iterable<[number, string, string]>) this.rows.set(rowid, { node, kind });
  }

  static open(path: string): TextIndex {
    const created = path === ':memory:' || !existsSync(path);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    return new TextIndex(new Database(path), created);
  }

  /** Adds or replaces an item; `body` undefined keeps the words it has (a change of metadata only). */
  put(item: Omit<IndexedItem, 'body'> & { body?: string }): void {
    this.write();
    this.changes++;
    const row = this.statements['find']!.get(item.node) as { rowid: number } | undefined;
    const values = { ...item, deprecated: item.deprecated ? 1 : 0, doc: JSON.stringify(item.doc) };
    let rowid: number;
    if (row) {
      rowid = row.rowid;
      this.statements['replace']!.run({ contentSeq: item.contentSeq, rev: item.rev, deprecated: values.deprecated, doc: values.doc, rowid });
      if (item.body !== undefined) this.statements['deleteWords']!.run(rowid);
    } else {
      const { body: _body, ...columns } = values;
      rowid = Number(this.statements['insert']!.run(columns).lastInsertRowid);
      this.rows.set(rowid, { node: item.node, kind: item.kind });
    }
    if (item.body !== undefined || !row) {
      this.statements['insertWords']!.run(rowid, item.body ?? '');
      this.forgetMatches();
    }
    this.loaded.get(`${item.kind} ${item.project}`)?.set(item.node, item.doc);
  }

  remove(kind: string, project: ProjectRef, node: string): void {
    this.write();
    this.changes++;
    this.forgetMatches();
    const row = this.statements['find']!.get(node) as { rowid: number } | undefined;
    if (!row) return;
    this.statements['deleteWords']!.run(row.rowid);
    this.statements['deleteDoc']!.run(row.rowid);
    this.rows.delete(row.rowid);
    this.loaded.get(`${kind} ${project}`)?.delete(node);
  }

  /** Records that every event up to `seq` of the project is applied. */
  advance(project: ProjectRef, seq: number): void {
    this.write();
    this.statements['position']!.run(project, seq);
    this.projectPositions.set(project, seq);
  }

  /** Counts every change of a document: what was computed over the documents holds while it stays the same. */
  get generation(): number {
    return this.changes;
  }

  /** The log position the project's documents are at (undefined: nothing indexed yet). */
  positionOf(project: ProjectRef): number | undefined {
    return this.projectPositions.get(project);
  }

  /** What is indexed of every item, by node. */
  versions(): Map<string, IndexedVersion> {
    const out = new Map<string, IndexedVersion>();
    for (const row of this.statements['versions']!.iterate() as Iterable<{ node: string; contentSeq: number; rev: number }>)
      out.set(row.node, { contentSeq: row.contentSeq, rev: row.rev });
    return out;
  }

  /** Items of a kind matching an FTS5 expression (built from words only, see analyzer.ts), with their BM25 score. */
  match(expression: string, kind: string): readonly TextMatch[] {
    const key = `${kind} ${expression}`;
    const cached = this.matchCache.get(key);
    if (cached) {
      // Most recently used last: the first entry is the one to drop.
      this.matchCache.delete(key);
      this.matchCache.set(key, cached);
      return cached;
    }
    const out: TextMatch[] = [];
    for (const [rowid, score] of this.statements['match']!.all(expression) as [number, number][]) {
      const row = this.rows.get(rowid);
      if (row && row.kind === kind) out.push({ node: row.node, score });
    }
    this.matchCache.set(key, out);
    this.cachedRows += out.length;
    for (const [oldest, rows] of this.matchCache) {
      if (this.cachedRows <= CACHED_ROWS || oldest === key) break;
      this.matchCache.delete(oldest);
      this.cachedRows -= rows.length;
    }
    return out;
  }

  private forgetMatches(): void {
    if (!this.cachedRows && !this.matchCache.size) return;
    this.matchCache.clear();
    this.cachedRows = 0;
  }

  /** The documents of a kind in a project, parsed once and then kept current. */
  documents(kind: string, project: ProjectRef): ReadonlyMap<string, JsonObject> {
    const key = `${kind} ${project}`;
    let docs = this.loaded.get(key);
    if (!docs) {
      docs = new Map();
      for (const row of this.statements['docsOf']!.iterate(kind, project) as Iterable<{ node: string; doc: string }>)
        docs.set(row.node, JSON.parse(row.doc) as JsonObject);
      this.loaded.set(key, docs);
    }
    return docs;
  }

  /** One item's document. */
  document(kind: string, project: ProjectRef, node: string): JsonObject | undefined {
    const loaded = this.loaded.get(`${kind} ${project}`);
    if (loaded) return loaded.get(node);
    const row = this.statements['docOf']!.get(node) as { doc: string } | undefined;
    return row && (JSON.parse(row.doc) as JsonObject);
  }

  /** Makes every write so far durable now. */
  commit(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    if (!this.inTransaction) return;
    this.db.exec('COMMIT');
    this.inTransaction = false;
  }

  close(): void {
    this.commit();
    this.db.close();
  }

  private write(): void {
    if (this.inTransaction) return;
    this.db.exec('BEGIN');
    this.inTransaction = true;
    this.commitTimer = setTimeout(() => this.commit(), COMMIT_MILLIS);
    this.commitTimer.unref();
  }
}
