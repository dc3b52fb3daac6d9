import { isLabel } from '../kernel/labels.js';
import { rejections } from './rejections.js';

export const checkLabel = (label: string): string => {
  if (!isLabel(label)) throw rejections.invalidLabel(label);
  return label;
};
