import type { TextMatch, TextMatcher } from '../catalogue/textRanking.js';
import type { ProjectRef } from '../kernel/labels.js';
import { itemNode } from '../store/graphNames.js';
import { phrasePrefixOf } from './analyzer.js';
import type { TextIndex } from './TextIndex.js';

/** Listings' text matcher on the embedded text index (SQLite FTS5, BM25 scores). */
export class EmbeddedTextMatcher implements TextMatcher {
  constructor(private readonly index: TextIndex) {}

  async match(words: readonly string[], kind: string, projects: readonly ProjectRef[]): Promise<readonly TextMatch[]> {
    if (!words.length || !projects.length) return [];
    // The index ranks and keeps the matches of every project (BM25 weighs words over the whole index): kept to the projects here.
    const all = this.index.match(phrasePrefixOf(words), kind);
    const wanted = new Set(projects);
    // Where the project begins in an item node of the kind: `urn:registry:{kind}/{org}/{project}/{id}`.
    const start = itemNode(kind, '', '').length - 1;
    const kept = all.filter((m) => wanted.has(m.node.slice(start, m.node.indexOf('/', m.node.indexOf('/', start) + 1))));
    return kept.length === all.length ? all : kept;
  }
}
