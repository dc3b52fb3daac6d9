import type { ProjectRef } from '../kernel/labels.js';

/** The item a command is for, with when and by whom: every command of a kind kept whole per revision carries it. */
export interface ItemTarget {
  id: string;
  project: ProjectRef;
  instant: string;
  subject: string;
  /** The project's incarnation as the write saw it when it started (`Placement.projectSeen`); the event does not repeat it. */
  projectSeen?: number;
}

/** What a command's event repeats of it: the item, when and by whom. */
export const targetOf = ({ id, project, instant, subject }: ItemTarget): ItemTarget => ({ id, project, instant, subject });

/** The commands every such kind takes alike (storages, files, resolvers, views), whatever else it takes. */
export type TagCommand = ItemTarget & { type: 'Tag'; rev: number; tag: string; targetRev: number };
export type DeprecateCommand = ItemTarget & { type: 'Deprecate'; rev: number };
export type UndeprecateCommand = ItemTarget & { type: 'Undeprecate'; rev: number };
