import type { MatchSelection, RankedQuery, RankedResult, TextMatch, TextMatcher } from '../catalogue/textRanking.js';
import { rankMatches } from '../catalogue/textRanking.js';
import type { ProjectRef } from '../kernel/labels.js';
import { itemNode } from '../store/graphNames.js';
import { phrasePrefixOf } from '../kernel/analyzer.js';
import type { TextIndex } from './TextIndex.js';

const NONE: readonly TextMatch[] = [];

/**
 * Listings' text matcher on the embedded text index (SQLite FTS5, BM25 scores): a page is ranked in
 * process from every match, the listing's conditions read from the in-memory catalogue.
 */
export class EmbeddedTextMatcher implements TextMatcher {
  constructor(
    private readonly index: TextIndex,
    private readonly catalogue: MatchSelection,
  ) {}

  async match(words: readonly string[], kind: string, projects: readonly ProjectRef[]): Promise<readonly TextMatch[]> {
    if (!words.length || !projects.length) return NONE;
    // The index ranks and keeps the matches of every project (BM25 weighs words over the whole index): kept to the projects here.
    const all = this.index.match(phrasePrefixOf(words), kind);
    const wanted = new Set(projects);
    // Where the project begins in an item node of the kind: `urn:registry:{kind}/{org}/{project}/{id}`.
    const start = itemNode(kind, '', '').length - 1;
    const kept = all.filter((m) => wanted.has(m.node.slice(start, m.node.indexOf('/', m.node.indexOf('/', start) + 1))));
    return kept.length === all.length ? all : kept;
  }

  async rank(query: RankedQuery): Promise<RankedResult> {
    return rankMatches(this.catalogue, query, await this.match(query.words, query.filter.kind, query.projects));
  }
}
