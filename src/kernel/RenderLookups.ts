import type { Addresses } from './Addresses.js';

/** What rendering an event needs beyond the event: the project UUIDs and, for events that do not carry it, the item's schema. */
export interface RenderLookups {
  addresses: Addresses;
  projectUuids(ref: string): { uuid: string; orgUuid: string } | undefined;
  schemaOf(key: string): { schema: string; schemaProject: string } | undefined;
}
