import { orgRejections } from './orgs/orgRejections.js';
import { projectRejections } from './projects/projectRejections.js';
import { requestRejections } from '../kernel/requestRejections.js';
import { resourceRejections } from './resources/resourceRejections.js';
import { jsonldRejections } from '../jsonld/jsonldRejections.js';

/** Every rejection the domain raises, one family per kind (each family knows its statuses). */
export const rejections = {
  ...requestRejections,
  ...orgRejections,
  ...projectRejections,
  ...resourceRejections,
  ...jsonldRejections,
};
