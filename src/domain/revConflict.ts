import type { Rejection } from '../kernel/Rejection.js';
import { rejections } from './rejections.js';

/**
 * The rejection a lost race in the log becomes (`CommandDefinition.conflict`): on an item that
 * exists, a stale `rev` (the command's own, the item's when the command names none); on a create,
 * the item another writer created first.
 */
export const revConflict =
  <S extends { rev: number }, C extends object>(alreadyExists: (cmd: C) => Rejection) =>
  (state: S | undefined, cmd: C, actual: number): Rejection =>
    state ? rejections.incorrectRev('rev' in cmd && typeof cmd.rev === 'number' ? cmd.rev : state.rev, actual) : alreadyExists(cmd);
