import { expect } from 'chai';
import { ProjectDatasets } from '../../src/store/ProjectDatasets.js';

const g = (item: string) => `urn:registry:resources/o/p/${item}/rev/1`;
const names = (datasets: ProjectDatasets, query: string) =>
  (
    JSON.parse(datasets.query({ project: 'o/p', query, form: 'select', mediaType: 'application/sparql-results+json' }).body) as {
      results: { bindings: Record<string, { value: string }>[] };
    }
  ).results.bindings
    .map((b) => Object.values(b)[0]!.value)
    .sort();

describe('ProjectDatasets: a revision file read in pieces', () => {
  it('loads each graph in one piece, whatever the cuts, so its blank nodes stay one node and apart from others', () => {
    const file = [
      `_:b0 <urn:name> "a" <${g('a')}> .`,
      `<urn:a> <urn:has> _:b0 <${g('a')}> .`,
      `_:b0 <urn:name> "b" <${g('b')}> .`,
      `<urn:b> <urn:has> _:b0 <${g('b')}> .`,
      '',
    ].join('\n');
    for (let cut = 0; cut < file.length; cut = file.indexOf('\n', cut) + 1 || file.length) {
      const datasets = new ProjectDatasets(1_000);
      datasets.setHeads([
        ['o/p', 'urn:registry:resources/o/p/a', g('a')],
        ['o/p', 'urn:registry:resources/o/p/b', g('b')],
      ]);
      const held = datasets.loadRevisions(file.slice(0, cut), false);
      datasets.loadRevisions(held + file.slice(cut), true);
      expect(names(datasets, 'SELECT ?n WHERE { <urn:a> <urn:has> ?x . ?x <urn:name> ?n }'), `cut at ${cut}`).to.deep.equal(['a']);
      expect(names(datasets, 'SELECT ?n WHERE { GRAPH ?g { <urn:b> <urn:has> ?x . ?x <urn:name> ?n } }'), `cut at ${cut}`).to.deep.equal(['b']);
      if (cut === file.length) break;
    }
  });
});
