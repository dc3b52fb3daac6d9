import { rejections } from './rejections.js';

const LABEL = /^[a-zA-Z0-9_-]{1,64}$/;

export const checkLabel = (label: string): string => {
  if (!LABEL.test(label)) throw rejections.invalidLabel(label);
  return label;
};

/** A project reference, `org/project`. */
export type ProjectRef = string;

export const projectRef = (org: string, project: string): ProjectRef => `${org}/${project}`;
