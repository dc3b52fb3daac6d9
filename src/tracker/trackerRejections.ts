import { Rejection } from '../kernel/Rejection.js';
import type { RejectionTypes } from '../kernel/Rejection.js';

/**
 * Refusals of the issue-tracker integration, named as the public system names them (wire-tracker.md,
 * "Errors"), plus this service's own for a tracker that is not configured or does not answer.
 */
export const trackerRejections = {
  notConfigured: () =>
    new Rejection(
      'TrackerNotConfigured',
      'The issue-tracker integration is not configured: plugins.jira.enabled, base, consumer-key and private-key must be set in the configuration file.',
    ),
  noToken: () => new Rejection('NoTokenError', 'No token has been found for the current user.'),
  requestTokenExpected: () => new Rejection('RequestTokenExpected', 'A request token was expected for the current user.'),
  accessTokenExpected: () => new Rejection('AccessTokenExpected', 'An access token was expected for the current user.'),
  /** The tracker refused: its status is relayed (`relayedStatus`, not rendered), its body is `content`. */
  responseError: (status: number, content: unknown) =>
    new Rejection('JiraResponseError', `Jira responded with an error with status code ${status}`, { content, relayedStatus: status }),
  timeout: (millis: number) => new Rejection('TrackerTimeout', `The issue tracker did not answer within ${millis} ms.`),
  unreachable: (why: string) => new Rejection('TrackerUnreachable', `The issue tracker could not be reached: ${why}`),
  unexpectedAnswer: (why: string) => new Rejection('TrackerUnexpectedAnswer', `The issue tracker answered with something that is not usable: ${why}`),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const trackerStatuses = {
  TrackerNotConfigured: 400,
  NoTokenError: 400,
  RequestTokenExpected: 400,
  AccessTokenExpected: 400,
  // The tracker's own status when it is an error status (see `relayedStatus`), else this one.
  JiraResponseError: 400,
  TrackerTimeout: 502,
  TrackerUnreachable: 502,
  TrackerUnexpectedAnswer: 502,
} satisfies Record<RejectionTypes<typeof trackerRejections>, number>;

/** The types whose status is the one the tracker answered, carried in the field `relayedStatus`. */
export const trackerRelayedStatuses: ReadonlySet<keyof typeof trackerStatuses> = new Set(['JiraResponseError'] as const);
