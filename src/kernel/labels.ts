const LABEL = /^[a-zA-Z0-9_-]{1,64}$/;

/** Organization and project labels: 1-64 of `[a-zA-Z0-9_-]`. */
export const isLabel = (label: string): boolean => LABEL.test(label);

/** A project reference, `org/project`. */
export type ProjectRef = string;

export const projectRef = (org: string, project: string): ProjectRef => `${org}/${project}`;
