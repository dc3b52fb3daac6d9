import { tagProblem } from '../../http/params.js';
import type { SelfRef } from './HistoryService.js';
import { historyRejections } from './historyRejections.js';

/**
 * The item a `_self` names, `{base}/v1/resources/{org}/{project}/{schema}/{id}` or
 * `{base}/v1/schemas/{org}/{project}/{id}`, with its own `?rev=` or `?tag=`; anything else is
 * refused (`InvalidResourceSelf`), so `/v1/diff` reads only items of this service.
 */
export const itemSelf = (name: string, value: string | undefined, base: string): SelfRef => {
  const refuse = () => historyRejections.invalidSelf(name, value ?? '');
  if (value === undefined || !value.startsWith(`${base}/v1/`)) throw refuse();
  const [path = '', query = ''] = value.slice(base.length + 4).split('?', 2);
  let parts: string[];
  try {
    parts = path.split('/').map((p) => decodeURIComponent(p));
  } catch {
    throw refuse();
  }
  const [kind, org, project, ...rest] = parts;
  if (!org || !project || rest.some((p) => p === '')) throw refuse();
  const named =
    kind === 'resources' && rest.length === 2
      ? { kind: 'resources' as const, schema: rest[0]!, id: rest[1]! }
      : kind === 'schemas' && rest.length === 1
        ? { kind: 'schemas' as const, schema: '_', id: rest[0]! }
        : undefined;
  if (!named) throw refuse();
  const params = new URLSearchParams(query);
  const rev = params.get('rev');
  const tag = params.get('tag');
  if ((rev !== null && tag !== null) || (rev !== null && !/^[1-9]\d{0,15}$/.test(rev)) || (tag !== null && tagProblem(tag) !== undefined)) throw refuse();
  return { ...named, project: `${org}/${project}`, selector: rev !== null ? { rev: Number(rev) } : tag !== null ? { tag } : {} };
};
