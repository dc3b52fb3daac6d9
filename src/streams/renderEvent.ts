import type { KindDefinition } from '../domain/KindDefinition.js';
import { context } from '../kernel/vocabulary.js';
import type { RenderLookups } from '../kernel/RenderLookups.js';
import type { LogEvent } from '../events/EventLog.js';

export type { RenderLookups };

/** One server-sent event: `event:` is the payload's `@type`. */
export interface RenderedEvent {
  type: string;
  data: string;
}

/** How each registered kind renders its events. */
export interface EventRenderers {
  definitionOf(kind: string): Pick<KindDefinition, 'render'> | undefined;
}

type Fields = Record<string, unknown>;

/** A kind without a definition of its own: its fields with the common `_` ones, minus internals. */
const genericPayload = (e: Fields, look: RenderLookups): Fields => {
  const { type, rev, instant, subject, expanded: _expanded, ...rest } = e;
  return { '@context': context('metadata'), '@type': type, ...rest, _rev: rev, _instant: instant, _subject: look.addresses.subject(String(subject)) };
};

export const renderEvent = (logged: LogEvent, renderers: EventRenderers, look: RenderLookups): RenderedEvent => {
  const definition = renderers.definitionOf(logged.kind);
  const payload = definition ? definition.render(logged, look) : genericPayload(logged.event as unknown as Fields, look);
  return { type: String(payload['@type']), data: JSON.stringify(payload) };
};

/** The wire frame: `data:`, `event:`, `id:` lines and a blank line (JSON text never holds a raw newline). */
export const frame = (seq: number, event: RenderedEvent): string => `data:${event.data}\nevent:${event.type}\nid:${seq}\n\n`;
