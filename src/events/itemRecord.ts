import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { StateTemplate } from '../kernel/stateTemplate.js';

/**
 * One item of the Redis log, as one hash field (`{prefix}:items`, keyed by the item's log key):
 * `{rev} {positions, comma-separated}` and, when the log keeps the item's latest state,
 * ` {state}`. The state is the one the item's last event led to, so its position is the last one
 * listed; it is kept as what it adds to that event: deflated with the event's JSON as the preset
 * dictionary (a state repeats its event's ids, types, instants and subject), the position's holes
 * marked by HOLE. A created resource's 661 B of state JSON takes ~150 B.
 */
export interface ItemRecord {
  rev: number;
  seqs: number[];
  /** The encoded state (`encodeState`), absent when the log keeps none for the item. */
  state?: Buffer;
}

/** Never in JSON text (control characters are escaped there): where the state's position goes. */
const HOLE = '\u0001';
/** The first byte of an encoded state: its encoding, so another can be added beside it. */
const DEFLATED = 0x7a; // 'z'
const SPACE = 0x20;
/** A small hash table: states are a few hundred bytes, and zlib's default one costs more to set up than to compress them. */
const DEFLATE = { memLevel: 1 };

/** The stored form of a state template, given the JSON of the event it is appended with (what the Lua script stores beside the positions). */
export const encodeState = (parts: StateTemplate, payload: string): Buffer =>
  Buffer.concat([Buffer.of(DEFLATED), deflateRawSync(parts.join(HOLE), { ...DEFLATE, dictionary: Buffer.from(payload) })]);

/** The state a stored one stands for: `payload` is the JSON of the event at `seq`, its item's last. */
export const decodeState = (state: Buffer, payload: Buffer, seq: number): unknown => {
  if (state[0] !== DEFLATED) throw new Error(`unknown state encoding ${state[0]}`);
  return JSON.parse(inflateRawSync(state.subarray(1), { dictionary: payload }).toString('utf8').split(HOLE).join(String(seq)));
};

/** A hash field's value as the item's revision, positions and stored state. */
export const parseRecord = (record: Buffer): ItemRecord => {
  const a = record.indexOf(SPACE);
  const b = record.indexOf(SPACE, a + 1);
  const rev = Number(record.toString('latin1', 0, a));
  const seqs = record
    .toString('latin1', a + 1, b < 0 ? record.length : b)
    .split(',')
    .map(Number);
  return b < 0 ? { rev, seqs } : { rev, seqs, state: record.subarray(b + 1) };
};

/** The hash field's value for an item (the scripts write the same, see APPEND_SCRIPT). */
export const formatRecord = ({ rev, seqs, state }: ItemRecord): Buffer => {
  const head = Buffer.from(`${rev} ${seqs.join(',')}`, 'latin1');
  return state ? Buffer.concat([head, Buffer.of(SPACE), state]) : head;
};
