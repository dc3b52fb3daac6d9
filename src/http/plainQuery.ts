import type { RequestHandler } from 'express';
import { rejections } from '../domain/rejections.js';

/**
 * Query parameters are plain names: a bracketed one (`rev[]=1`, `a[b]=c`) would otherwise be
 * ignored, and a meant update would become a create. Repeating a single-valued parameter is
 * refused where it is read.
 */
export const plainQuery: RequestHandler = (req, _res, next) => {
  const bracketed = Object.keys(req.query).find((name) => /[[\]]/.test(name));
  if (bracketed !== undefined)
    return next(
      rejections.malformedQueryParam(
        `Query parameter '${bracketed}' is not supported: parameters are plain names (repeat a name to give several values where a parameter takes several).`,
      ),
    );
  next();
};
