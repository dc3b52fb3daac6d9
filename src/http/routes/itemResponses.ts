import type { Request, Response } from 'express';
import type { Addresses } from '../../kernel/Addresses.js';
import { context } from '../../kernel/vocabulary.js';
import { integer } from '../params.js';
import { listingBody } from '../render/listing.js';

/** What every item route of every kind (resources, schemas, storages, files) answers alike. */

export const sendJsonLd = (res: Response, body: unknown, status = 200): void => void res.status(status).type('application/ld+json').send(JSON.stringify(body));

/** `from` and `size` of a link listing. */
export const paging = (req: Request): { from: number; size: number } => ({
  from: integer(req.query, 'from', 0, 10_000) ?? 0,
  size: integer(req.query, 'size', 1, 1000) ?? 20,
});

/** An item's tags, by revision then name. */
export const tagsBody = (tags: Readonly<Record<string, number>>): unknown => ({
  '@context': context('tags'),
  tags: Object.entries(tags)
    .map(([tag, rev]) => ({ rev, tag }))
    .sort((a, b) => a.rev - b.rev || a.tag.localeCompare(b.tag)),
});

/** A page of links, with the address of the next page (the request's own, other parameters kept) while there are more. */
export const linksBody = (req: Request, addresses: Addresses, total: number, results: Record<string, unknown>[], from: number, size: number): unknown => {
  const url = new URL(req.originalUrl, 'http://placeholder');
  url.searchParams.set('from', String(from + size));
  url.searchParams.set('size', String(size));
  return listingBody(total, results, from + size < total ? addresses.local(`${url.pathname}${url.search}`) : undefined);
};
