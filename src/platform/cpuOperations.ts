import type { JsonLdOperations } from '../jsonld/jsonldOperations.js';
import { jsonldOperations } from '../jsonld/jsonldOperations.js';
import type { ShaclOperations } from '../shacl/shaclOperations.js';
import { shaclOperations } from '../shacl/shaclOperations.js';

/** Every CPU-heavy operation the workers run: the JSON-LD floor's and the SHACL floor's. */
export type CpuOperations = JsonLdOperations & ShaclOperations;

export const cpuOperations = (): CpuOperations => {
  const jsonld = jsonldOperations();
  return { ...jsonld, ...shaclOperations(jsonld.toNQuads) };
};

/** The worker thread's script, which runs `cpuOperations`. */
export const cpuWorkerScript = new URL('./cpuWorker.js', import.meta.url);
