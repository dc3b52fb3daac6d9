import { benchSchemas } from './schemas.js';

/** `node dist/bench/runSchemas.js [N]`: the schema benchmark alone, while `bench.ts` runs everything. */
await benchSchemas(Number(process.argv[2] ?? 5_000));
