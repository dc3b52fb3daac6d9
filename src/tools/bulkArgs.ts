import { parseArgs } from 'node:util';

/** What `npm run import` and `npm run export` are told. */
export interface BulkArgs {
  url: string;
  project: string;
  file: string;
  token?: string;
  schema?: string;
  update: boolean;
  tag?: string;
  fromLine: number;
  errors?: string;
  format: 'ndjson' | 'nquads';
}

export class UsageError extends Error {}

/** Parses the command line; the token may come from `REGISTRY_TOKEN` instead (it then stays out of the process list). */
export const bulkArgs = (argv: string[], env: NodeJS.ProcessEnv, usage: string): BulkArgs => {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        project: { type: 'string' },
        token: { type: 'string' },
        schema: { type: 'string' },
        update: { type: 'boolean', default: false },
        tag: { type: 'string' },
        'from-line': { type: 'string' },
        errors: { type: 'string' },
        format: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  const { values, positionals } = parsed;
  const url = values.url ?? env['REGISTRY_URL'];
  if (!url) throw new UsageError(`--url is required (or REGISTRY_URL)\n${usage}`);
  if (!values.project || !/^[^/]+\/[^/]+$/.test(values.project)) throw new UsageError(`--project org/project is required\n${usage}`);
  if (positionals.length !== 1) throw new UsageError(`one FILE is required\n${usage}`);
  const fromLine = values['from-line'] === undefined ? 1 : Number(values['from-line']);
  if (!Number.isInteger(fromLine) || fromLine < 1) throw new UsageError(`--from-line takes a line number from 1\n${usage}`);
  const format = values.format ?? 'ndjson';
  if (format !== 'ndjson' && format !== 'nquads') throw new UsageError(`--format is ndjson or nquads\n${usage}`);
  const token = values.token ?? env['REGISTRY_TOKEN'];
  return {
    url: url.replace(/\/+$/, ''),
    project: values.project,
    file: positionals[0]!,
    update: values.update ?? false,
    fromLine,
    format,
    ...(token ? { token } : {}),
    ...(values.schema ? { schema: values.schema } : {}),
    ...(values.tag ? { tag: values.tag } : {}),
    ...(values.errors ? { errors: values.errors } : {}),
  };
};
