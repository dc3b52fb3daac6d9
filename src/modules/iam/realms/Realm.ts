import { authRejections } from '../../../kernel/authRejections.js';
import type { Audit, EventBase } from '../../../domain/Metadata.js';
import { created, touched } from '../../../domain/Metadata.js';
import type { Rejection } from '../../../kernel/Rejection.js';
import { rejections } from '../../../domain/rejections.js';
import type { EarlierRevisions } from '../../../domain/earlierRevisions.js';

import type { RealmFields } from '../../../kernel/RealmFields.js';

export type { RealmFields };

/** What discovery learned from the provider; the keys are the JWKS at discovery time. */
export interface WellKnown {
  issuer: string;
  jwksUri: string;
  keys: Record<string, unknown>[];
  grantTypes: string[];
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint: string;
  revocationEndpoint?: string;
  endSessionEndpoint?: string;
}

export interface RealmState extends Audit, RealmFields, WellKnown, EarlierRevisions<RealmState> {
  label: string;
}

interface Target {
  label: string;
  instant: string;
  subject: string;
}

export type RealmCommand =
  | (Target & { type: 'Create'; fields: RealmFields; wellKnown: WellKnown })
  | (Target & { type: 'Update'; rev: number; fields: RealmFields; wellKnown: WellKnown })
  | (Target & { type: 'Deprecate'; rev: number });

export type RealmEvent = EventBase & { label: string } & (
    | { type: 'RealmCreated'; fields: RealmFields; wellKnown: WellKnown }
    | { type: 'RealmUpdated'; fields: RealmFields; wellKnown: WellKnown }
    | { type: 'RealmDeprecated' }
  );

/** `openIdConfigs` maps every realm's discovery address to its label: two realms cannot share one. */
export const evaluateRealm = (state: RealmState | undefined, cmd: RealmCommand, openIdConfigs: ReadonlyMap<string, string>): RealmEvent | Rejection => {
  const base = { label: cmd.label, instant: cmd.instant, subject: cmd.subject };
  if (cmd.type !== 'Deprecate') {
    const owner = openIdConfigs.get(cmd.fields.openIdConfig);
    if (owner !== undefined && owner !== cmd.label) return authRejections.realmOpenIdConfigAlreadyExists(owner, cmd.fields.openIdConfig);
  }
  if (cmd.type === 'Create') {
    if (state) return authRejections.realmAlreadyExists(cmd.label);
    return { ...base, type: 'RealmCreated', rev: 1, fields: cmd.fields, wellKnown: cmd.wellKnown };
  }
  if (!state) return authRejections.realmNotFound(cmd.label);
  if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
  if (state.deprecated) return authRejections.realmAlreadyDeprecated(cmd.label);
  const next = { ...base, rev: state.rev + 1 };
  return cmd.type === 'Update' ? { ...next, type: 'RealmUpdated', fields: cmd.fields, wellKnown: cmd.wellKnown } : { ...next, type: 'RealmDeprecated' };
};

/** Optional fields absent from an update are absent from the state, not kept from before. */
const clearOptional = {
  logo: undefined,
  acceptedAudiences: undefined,
  revocationEndpoint: undefined,
  endSessionEndpoint: undefined,
};

export const nextRealm = (state: RealmState | undefined, event: RealmEvent): RealmState | undefined => {
  switch (event.type) {
    case 'RealmCreated':
      return { ...created(event), label: event.label, ...event.fields, ...event.wellKnown };
    case 'RealmUpdated':
      return state && touched<RealmState>({ ...state, ...clearOptional }, event, { ...event.fields, ...event.wellKnown });
    case 'RealmDeprecated':
      return state && touched(state, event, { deprecated: true });
  }
};

/** The realm a token names by its `iss`, among the non-deprecated ones. */
export const activeRealmByIssuer = (realms: Iterable<RealmState>, issuer: string): RealmState | undefined => {
  for (const r of realms) if (!r.deprecated && r.issuer === issuer) return r;
  return undefined;
};
